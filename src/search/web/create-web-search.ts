import { ConfigError } from '../../ports/errors.js';
import type { WebSearch } from '../../ports/web-search.js';
import { BraveSearch } from './brave-search.js';
import { ExaSearch } from './exa-search.js';
import type { SearchSettings } from './search-settings.js';
import { SearxngSearch } from './searxng-search.js';
import { TavilySearch } from './tavily-search.js';

/** The configured provider, built once per process so its rate limiter is shared; none → knowledge base only. */
export function createWebSearch(search: SearchSettings): WebSearch | undefined {
  const problem = searchKeyProblem(search);
  if (problem) throw new ConfigError('missing_env', problem);
  const options = { requestsPerSecond: search.requestsPerSecond };
  switch (search.provider) {
    case 'tavily':
      return new TavilySearch(search.tavilyKey!, options);
    case 'brave':
      return new BraveSearch(search.braveKey!, options);
    case 'exa':
      return new ExaSearch(search.exaKey!, options);
    case 'searxng':
      return new SearxngSearch(search.searxngUrl!, options);
    default:
      return undefined;
  }
}

/** What the configured provider lacks, if anything: the one place each provider's required setting is named. */
export function searchKeyProblem(search: SearchSettings): string | undefined {
  const needs: Record<string, [string | undefined, string]> = {
    tavily: [search.tavilyKey, 'TAVILY_API_KEY'],
    brave: [search.braveKey, 'BRAVE_API_KEY'],
    exa: [search.exaKey, 'EXA_API_KEY'],
    searxng: [search.searxngUrl, 'SEARXNG_URL'],
  };
  const need = search.provider ? needs[search.provider] : undefined;
  if (!need || need[0]) return undefined;
  return `SEARCH_PROVIDER=${search.provider} needs ${need[1]}: set it, or choose another provider.`;
}
