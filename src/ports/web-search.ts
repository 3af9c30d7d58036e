/** One web search hit, normalised across providers. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  publishedAt?: string;
}

/**
 * A web search provider. One query per call: the engine runs queries in
 * parallel, caches them per session, interleaves and dedups the results.
 */
export interface WebSearch {
  readonly name: string;
  search(query: string, options: { maxResults: number; signal: AbortSignal }): Promise<SearchHit[]>;
}
