import { z } from 'zod';
import { ProviderError } from '../../ports/errors.js';
import type { SearchHit, WebSearch } from '../../ports/web-search.js';
import { plainSnippet } from './plain-snippet.js';
import { ProviderClient, type ProviderClientOptions } from './provider-client.js';

const response = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

/**
 * A self-hosted SearXNG instance's JSON API: no key, but the instance must
 * list `json` under `search.formats`, or it answers 403.
 */
export class SearxngSearch implements WebSearch {
  readonly name = 'searxng';
  private readonly client: ProviderClient;

  constructor(
    private readonly baseUrl: string,
    options: Partial<ProviderClientOptions> = {},
  ) {
    this.client = new ProviderClient({
      label: 'SearXNG',
      errorDetail: (body) => {
        const { error } = body as { error?: unknown };
        return typeof error === 'string' ? error : undefined;
      },
      ...options,
    });
  }

  async search(query: string, options: { maxResults: number; signal: AbortSignal }): Promise<SearchHit[]> {
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    try {
      const { results } = await this.client.request({ url: url.href }, response, options.signal);
      return results.slice(0, options.maxResults).map((r) => ({
        title: plainSnippet(r.title),
        url: r.url,
        snippet: plainSnippet(r.content),
        publishedAt: r.publishedDate ?? undefined,
      }));
    } catch (error) {
      if ((error as { status?: number }).status === 403) {
        throw new ProviderError(
          'search_failed',
          'SearXNG refused the JSON API (HTTP 403); add json under search.formats in its settings.yml',
          false,
          { status: 403 },
        );
      }
      throw error;
    }
  }
}
