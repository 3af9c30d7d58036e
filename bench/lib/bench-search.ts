import { sleep } from '../../src/http/retry-delay.js';
import type { WebSearch } from '../../src/ports/web-search.js';

/** One result per query after a fixed delay. */
export function benchSearch(latencyMs: number): WebSearch {
  return {
    name: 'bench',
    async search(query, { signal }) {
      await sleep(latencyMs, signal);
      const slug = query.toLowerCase().replace(/\W+/g, '-');
      return [{ title: query, url: `https://example.com/${slug}`, snippet: `All about ${query}.` }];
    },
  };
}
