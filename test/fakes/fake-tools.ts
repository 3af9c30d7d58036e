import { sleep } from '../../src/http/retry-delay.js';
import type { KnowledgeBase, KnowledgeHit } from '../../src/ports/knowledge-base.js';
import type { Page, PageReader, PageResult } from '../../src/ports/page-reader.js';
import type { SearchHit, WebSearch } from '../../src/ports/web-search.js';

/** In-memory search: each known query returns its hits; unknown queries return nothing. */
export function fakeWebSearch(
  corpus: Record<string, SearchHit[]>,
  options: { delayMs?: number; failing?: string[] } = {},
): WebSearch & { queries: string[] } {
  const queries: string[] = [];
  return {
    name: 'fake',
    queries,
    async search(query, { signal }) {
      queries.push(query);
      if (options.delayMs) await sleep(options.delayMs, signal);
      if (options.failing?.includes(query)) throw new Error('search provider timed out');
      return corpus[query] ?? [];
    },
  };
}

export function fakePageReader(
  pages: Record<string, Page | { fail: string }>,
): PageReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async read(url): Promise<PageResult> {
      reads.push(url);
      const page = pages[url];
      if (!page) return { ok: false, reason: '404 not found', kind: 'http_error' };
      if ('fail' in page) return { ok: false, reason: page.fail, kind: 'failed' };
      return { ok: true, page };
    },
  };
}

export function fakeKnowledgeBase(docs: KnowledgeHit[]): KnowledgeBase & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async hasDocuments() {
      return docs.length > 0;
    },
    async search(query) {
      queries.push(query);
      const words = query.toLowerCase().split(/\s+/);
      return docs.filter((d) => words.some((w) => d.text.toLowerCase().includes(w)));
    },
  };
}

export function hit(url: string, title: string, snippet = `About ${title}`): SearchHit {
  return { url, title, snippet };
}

export function page(url: string, title: string, text: string): Page {
  return { url, title, text };
}
