import type { Config } from '../../config.js';
import { ConfigError } from '../../engine/errors.js';
import type { WebSearch } from '../../ports/web-search.js';
import { BraveSearch } from './brave-search.js';
import { ExaSearch } from './exa-search.js';
import { SearxngSearch } from './searxng-search.js';
import { TavilySearch } from './tavily-search.js';

/** The configured provider, built once per process so its rate limiter is shared; none → knowledge base only. */
export function createWebSearch(search: Config['search']): WebSearch | undefined {
  const options = { requestsPerSecond: search.requestsPerSecond };
  switch (search.provider) {
    case 'tavily':
      return new TavilySearch(required(search.tavilyKey, 'tavily', 'TAVILY_API_KEY'), options);
    case 'brave':
      return new BraveSearch(required(search.braveKey, 'brave', 'BRAVE_API_KEY'), options);
    case 'exa':
      return new ExaSearch(required(search.exaKey, 'exa', 'EXA_API_KEY'), options);
    case 'searxng':
      return new SearxngSearch(required(search.searxngUrl, 'searxng', 'SEARXNG_URL'), options);
    default:
      return undefined;
  }
}

function required(value: string | undefined, provider: string, variable: string): string {
  if (value) return value;
  throw new ConfigError(
    'missing_env',
    `SEARCH_PROVIDER=${provider} needs ${variable}: set it, or choose another provider.`,
  );
}
