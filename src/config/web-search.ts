import { z } from 'zod';
import { type EnvOf, flag, optionalText, optionalUrl, positiveNumber } from '../ports/env-values.js';
import type { SearchProviderName, SearchSettings } from '../search/web/search-settings.js';

/** The web search provider and the page reader. */
export const SEARCH_FIELDS = {
  SEARCH_PROVIDER: optionalText.pipe(z.enum(['tavily', 'brave', 'exa', 'searxng', 'none']).optional()),
  TAVILY_API_KEY: optionalText,
  BRAVE_API_KEY: optionalText,
  EXA_API_KEY: optionalText,
  SEARXNG_URL: optionalUrl,
  SEARCH_REQUESTS_PER_SECOND: positiveNumber.optional(),
  ALLOW_PRIVATE_URLS: flag,
  PAGE_READ_SECONDS: positiveNumber.default(30),
};

export function readSearch(e: EnvOf<typeof SEARCH_FIELDS>): SearchSettings {
  return {
    provider: e.SEARCH_PROVIDER ?? firstConfiguredProvider(e),
    tavilyKey: e.TAVILY_API_KEY,
    braveKey: e.BRAVE_API_KEY,
    exaKey: e.EXA_API_KEY,
    searxngUrl: e.SEARXNG_URL,
    requestsPerSecond: e.SEARCH_REQUESTS_PER_SECOND,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    pageReadMs: e.PAGE_READ_SECONDS * 1000,
  };
}

/** Unset SEARCH_PROVIDER: the first provider whose key (or URL) is set. */
function firstConfiguredProvider(e: EnvOf<typeof SEARCH_FIELDS>): SearchProviderName | null {
  if (e.TAVILY_API_KEY) return 'tavily';
  if (e.BRAVE_API_KEY) return 'brave';
  if (e.EXA_API_KEY) return 'exa';
  if (e.SEARXNG_URL) return 'searxng';
  return null;
}
