import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/search/read/extract-html.js';

/**
 * Real-world pages (test/fixtures/pages/corpus, provenance and licences in its
 * README) against the text a reader expects from them: recall of the expected
 * passages, and for pages whose expectation is the whole article, the share of
 * extracted text that is not in it (noise).
 */
interface Page {
  id: string;
  file: string;
  kind: string;
  expected: string[];
  full?: boolean;
  edits?: [string, string][];
}

const DIR = new URL('../../fixtures/pages/corpus/', import.meta.url);
const pages: Page[] = JSON.parse(readFileSync(new URL('corpus.json', DIR), 'utf8'));
const GRAM = 12;

/** Letters and digits only, so whitespace, punctuation and list markers do not count. */
const letters = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '');
function grams(passages: string[]): Set<string> {
  const out = new Set<string>();
  for (const passage of passages) {
    const s = letters(passage);
    if (s.length < GRAM) out.add(s);
    for (let i = 0; i + GRAM <= s.length; i++) out.add(s.slice(i, i + GRAM));
  }
  return out;
}
const share = (part: Set<string>, whole: Set<string>) => {
  let n = 0;
  for (const g of part) if (whole.has(g)) n++;
  return part.size ? n / part.size : 1;
};

function html(page: Page): string {
  let text = gunzipSync(readFileSync(new URL(page.file, DIR))).toString('utf8');
  for (const [pattern, replacement] of page.edits ?? [])
    text = text.replace(new RegExp(pattern, 'i'), replacement);
  return text;
}

describe('page extraction on real-world pages', () => {
  const results = pages.map((page) => {
    let text = '';
    let error: string | undefined;
    try {
      text = extractHtml(html(page)).text;
    } catch (e) {
      error = String(e);
    }
    // Expected passages are matched one by one (a page may interleave captions between them), and
    // the extraction as one run (an expectation may join paragraphs the page keeps apart).
    const whole = (passages: string[]) => new Set([...grams(passages), ...grams([passages.join('')])]);
    return {
      page,
      text,
      error,
      recall: share(grams(page.expected), whole([text])),
      noise: page.full ? 1 - share(grams(text.split(/\n+/)), whole(page.expected)) : undefined,
    };
  });

  it('covers the kinds of page the issue names', () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
    for (const kind of ['news', 'blog', 'docs', 'wikipedia', 'table', 'variant']) {
      expect(
        pages.some((p) => p.kind === kind),
        kind,
      ).toBe(true);
    }
  });

  it('extracts every page without throwing, with recall ≥ 0.99 on at least 95 % of them', () => {
    const lines = results.map(
      (r) =>
        `${r.page.id.padEnd(34)} recall ${r.recall.toFixed(3)}${r.noise === undefined ? '' : `  noise ${r.noise.toFixed(3)}`}${r.error ? `  THREW ${r.error}` : ''}`,
    );
    const good = results.filter((r) => r.recall >= 0.99).length;
    const noisy = results.flatMap((r) => (r.noise === undefined ? [] : [r.noise])).sort((a, b) => a - b);
    console.log(
      `${lines.join('\n')}\n${good} of ${results.length} pages with recall ≥ 0.99; median noise ${noisy[Math.floor(noisy.length / 2)]?.toFixed(3)} over ${noisy.length} whole-article pages`,
    );
    expect(results.filter((r) => r.error).map((r) => r.page.id)).toEqual([]);
    expect(good / results.length).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps table rows readable as rows', () => {
    for (const r of results.filter((x) => x.page.kind === 'table')) {
      for (const row of r.page.expected.filter((e) => e.includes(' | '))) expect(r.text).toContain(row);
    }
  });

  it('keeps most of a whole-article page to the article (median noise ≤ 0.15)', () => {
    const noise = results.flatMap((r) => (r.noise === undefined ? [] : [r.noise])).sort((a, b) => a - b);
    expect(noise[Math.floor(noise.length / 2)]).toBeLessThanOrEqual(0.15);
  });
});
