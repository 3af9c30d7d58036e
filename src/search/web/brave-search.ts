import { z } from 'zod';
import type { SearchHit, WebSearch } from '../../ports/web-search.js';
import { plainSnippet } from './plain-snippet.js';
import { ProviderClient, type ProviderClientOptions } from './provider-client.js';

const response = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string().nullish(),
          url: z.string(),
          description: z.string().nullish(),
          page_age: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

/**
 * Brave Search's web endpoint (https://api-dashboard.search.brave.com/app/documentation):
 * key in X-Subscription-Token, at most 20 results, `{error: {code, detail}}` on
 * failure, and rate windows announced in X-RateLimit-Reset instead of Retry-After.
 */
export class BraveSearch implements WebSearch {
  readonly name = 'brave';
  private readonly client: ProviderClient;

  constructor(
    private readonly apiKey: string,
    options: Partial<ProviderClientOptions> = {},
  ) {
    this.client = new ProviderClient({
      label: 'Brave Search',
      keyVariable: 'BRAVE_API_KEY',
      errorDetail: (body) => {
        const error = (body as { error?: { detail?: unknown; code?: unknown } }).error;
        const said = error?.detail ?? error?.code;
        return typeof said === 'string' ? said : undefined;
      },
      retryAfter: braveRetryAfter,
      ...options,
    });
  }

  async search(query: string, options: { maxResults: number; signal: AbortSignal }): Promise<SearchHit[]> {
    const url = new URL('https://api.search.brave.com/res/v1/web/search');
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(options.maxResults, 20)));
    url.searchParams.set('text_decorations', 'false');
    const { web } = await this.client.request(
      { url: url.href, headers: { 'x-subscription-token': this.apiKey } },
      response,
      options.signal,
    );
    return (web?.results ?? []).map((r) => ({
      title: plainSnippet(r.title),
      url: r.url,
      snippet: plainSnippet(r.description),
      publishedAt: r.page_age ?? undefined,
    }));
  }
}

/** "1, 1419704": seconds until the per-second window and the monthly window reset; the first is the wait. */
function braveRetryAfter(headers: Headers): number | undefined {
  const first = Number.parseFloat(headers.get('x-ratelimit-reset')?.split(',')[0] ?? '');
  return Number.isFinite(first) && first >= 0 ? first * 1000 : undefined;
}
