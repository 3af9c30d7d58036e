export type SearchProviderName = 'tavily' | 'brave' | 'exa' | 'searxng';

/** Web search and page reading as the settings give them (SEARCH_PROVIDER, its key or URL, the page reader's limits). */
export interface SearchSettings {
  provider: SearchProviderName | 'none' | null;
  tavilyKey?: string;
  braveKey?: string;
  exaKey?: string;
  searxngUrl?: string;
  requestsPerSecond?: number;
  allowPrivateUrls: boolean;
  pageReadMs: number;
}
