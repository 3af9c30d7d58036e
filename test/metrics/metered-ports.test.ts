import { describe, expect, it } from 'vitest';
import { meteredPageReader, meteredWebSearch } from '../../src/metrics/metered-ports.js';
import type { Metrics } from '../../src/metrics/metrics.js';
import { noMetrics } from '../../src/metrics/metrics.js';
import { ProviderError } from '../../src/ports/errors.js';
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

  it('counts each read that gave nothing, by the kind of failure the reader names', async () => {
    const { metrics, failures } = recording();
    const results: PageResult[] = [
      { ok: false, reason: 'refused: 10.0.0.1 is a private address', kind: 'refused' },
      { ok: true, page: { url: 'https://x.example/', title: 'X', text: 'text' } },
      { ok: false, reason: 'connection refused', kind: 'unreachable' },
    ];
    let next = 0;
    const reader = meteredPageReader({ read: async () => results[next++]! }, metrics);
    for (const _ of results)
      await reader.read('https://x.example/', { signal: new AbortController().signal });
    expect(failures).toEqual(['open_url:refused', 'open_url:unreachable']);
  });
});
