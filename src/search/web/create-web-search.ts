import type { Config } from '../../config-shape.js';
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
  throw new ConfigError('missing_env', missingKey(provider, variable));
}

const missingKey = (provider: string, variable: string) =>
  `SEARCH_PROVIDER=${provider} needs ${variable}: set it, or choose another provider.`;

/** What the configured provider lacks, if anything (checked before research starts). */
export function searchKeyProblem(search: Config['search']): string | undefined {
  const needs: Record<string, [string | undefined, string]> = {
    tavily: [search.tavilyKey, 'TAVILY_API_KEY'],
    brave: [search.braveKey, 'BRAVE_API_KEY'],
    exa: [search.exaKey, 'EXA_API_KEY'],
    searxng: [search.searxngUrl, 'SEARXNG_URL'],
  };
  const need = search.provider ? needs[search.provider] : undefined;
  return need && !need[0] ? missingKey(search.provider!, need[1]) : undefined;
}
