import { z } from 'zod';
import type { SearchHit, WebSearch } from '../../ports/web-search.js';
import { plainSnippet } from './plain-snippet.js';
import { ProviderClient, type ProviderClientOptions } from './provider-client.js';

const response = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      publishedDate: z.string().nullish(),
      highlights: z.array(z.string()).nullish(),
      summary: z.string().nullish(),
      text: z.string().nullish(),
    }),
  ),
});

/** Exa's `/search` (https://docs.exa.ai): key in x-api-key, highlights as snippets, `{error}` on failure. */
export class ExaSearch implements WebSearch {
  readonly name = 'exa';
  private readonly client: ProviderClient;

  constructor(
    private readonly apiKey: string,
    options: Partial<ProviderClientOptions> = {},
  ) {
    this.client = new ProviderClient({
      label: 'Exa',
      keyVariable: 'EXA_API_KEY',
      errorDetail: (body) => {
        const { error, message } = body as { error?: unknown; message?: unknown };
        const said = error ?? message;
        return typeof said === 'string' ? said : undefined;
      },
      ...options,
    });
  }

  async search(query: string, options: { maxResults: number; signal: AbortSignal }): Promise<SearchHit[]> {
    const { results } = await this.client.request(
      {
        url: 'https://api.exa.ai/search',
        method: 'POST',
        headers: { 'x-api-key': this.apiKey },
        body: {
          query,
          type: 'auto',
          numResults: Math.min(options.maxResults, 25),
          contents: { highlights: { numSentences: 3, highlightsPerUrl: 2 } },
        },
      },
      response,
      options.signal,
    );
    return results.map((r) => ({
      title: plainSnippet(r.title),
      url: r.url,
      snippet: plainSnippet(r.highlights?.join(' … ') || r.summary || r.text?.slice(0, 600)),
      publishedAt: r.publishedDate ?? undefined,
    }));
  }
}
