import { z } from 'zod';
import type { SearchHit, WebSearch } from '../../ports/web-search.js';
import { plainSnippet } from './plain-snippet.js';
import { ProviderClient, type ProviderClientOptions } from './provider-client.js';

const response = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

/** Tavily's `/search` (https://docs.tavily.com): bearer key, JSON body, `{detail: {error}}` on failure. */
export class TavilySearch implements WebSearch {
  readonly name = 'tavily';
  private readonly client: ProviderClient;

  constructor(
    private readonly apiKey: string,
    options: Partial<ProviderClientOptions> = {},
  ) {
    this.client = new ProviderClient({
      label: 'Tavily',
      keyVariable: 'TAVILY_API_KEY',
      errorDetail: (body) => {
        const detail = (body as { detail?: { error?: unknown } | string }).detail;
        if (typeof detail === 'string') return detail;
        return typeof detail?.error === 'string' ? detail.error : undefined;
      },
      ...options,
    });
  }

  async search(query: string, options: { maxResults: number; signal: AbortSignal }): Promise<SearchHit[]> {
    const { results } = await this.client.request(
      {
        url: 'https://api.tavily.com/search',
        method: 'POST',
        headers: { authorization: `Bearer ${this.apiKey}` },
        body: {
          query,
          max_results: Math.min(options.maxResults, 20),
          search_depth: 'basic',
          topic: 'general',
          include_answer: false,
          include_raw_content: false,
        },
      },
      response,
      options.signal,
    );
    return results.map((r) => ({
      title: plainSnippet(r.title),
      url: r.url,
      snippet: plainSnippet(r.content),
      publishedAt: r.published_date ?? undefined,
    }));
  }
}
