import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import { meteredPageReader, meteredWebSearch } from '../../src/metrics/metered-ports.js';
import type { Metrics } from '../../src/metrics/metrics.js';
import { noMetrics } from '../../src/metrics/metrics.js';
import type { PageResult } from '../../src/ports/page-reader.js';

function recording() {
  const failures: string[] = [];
  const metrics: Metrics = { ...noMetrics, toolFailed: (tool, reason) => failures.push(`${tool}:${reason}`) };
  return { metrics, failures };
}

describe('metered research ports', () => {
  it('counts a search that could not be done, not one that found nothing nor one the caller cancelled', async () => {
    const { metrics, failures } = recording();
    let mode: 'empty' | 'fail' = 'empty';
    const search = meteredWebSearch(
      {
        name: 'fake',
        async search() {
          if (mode === 'fail') throw new ProviderError('search_rate_limited', 'Tavily answered 429', true);
          return [];
        },
      },
      metrics,
    );
    expect(await search.search('q', { maxResults: 5, signal: new AbortController().signal })).toEqual([]);
    mode = 'fail';
    await expect(
      search.search('q', { maxResults: 5, signal: new AbortController().signal }),
    ).rejects.toThrow();
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(search.search('q', { maxResults: 5, signal: cancelled.signal })).rejects.toThrow();
    expect(failures).toEqual(['web_search:search_rate_limited']);
  });

  it('labels page-read failures by kind, from the reader’s own sentences', async () => {
    const { metrics, failures } = recording();
    const reasons = [
      'refused: 10.0.0.1 is a private address',
      'blocked by a bot check (Cloudflare)',
      'HTTP 404 Not Found',
      'the page did not arrive within 30 s (the server is too slow)',
      'nowhere.invalid could not be resolved',
      'unsupported content type (image/png)',
      'something new',
    ];
    let next = 0;
    const reader = meteredPageReader(
      { read: async (): Promise<PageResult> => ({ ok: false, reason: reasons[next++]! }) },
      metrics,
    );
    for (const _ of reasons)
      await reader.read('https://x.example/', { signal: new AbortController().signal });
    expect(failures).toEqual([
      'open_url:refused',
      'open_url:bot_check',
      'open_url:http_error',
      'open_url:timeout',
      'open_url:unreachable',
      'open_url:unreadable',
      'open_url:other',
    ]);
  });
});
