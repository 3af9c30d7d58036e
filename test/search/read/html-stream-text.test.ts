import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/search/read/extract-html.js';
import { streamHtmlText } from '../../../src/search/read/html-stream-text.js';
import { htmlToText } from '../../../src/search/read/html-to-text.js';

const PAGE = `<!doctype html><html><head><title>Heat pumps</title>
<meta property="og:title" content="Heat pumps in 2025"><meta name="author" content="Ana Lima">
<meta property="article:published_time" content="2025-03-01"><script>var x = "<p>not text</p>";</script>
<style>p { color: red }</style></head><body><nav>Home · Menu</nav><header>Site</header>
<main><h2>Costs</h2><p>Prices  fell
by 12% &amp; more.</p><ul><li>Germany: 3.4</li><li>France: 3.1</li></ul>
<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2024</td><td>2,100</td></tr></table>
<pre>a  b
c</pre><div aria-hidden="true">hidden</div><p>End<br>line.</p></main><footer>© Site</footer></body></html>`;

describe('a large page read without a DOM', () => {
  it('keeps the same structure as the DOM reader, without scripts, furniture or hidden parts, and reads the head', () => {
    const page = streamHtmlText(PAGE, 1_000_000);
    expect(page).toMatchObject({
      title: 'Heat pumps in 2025',
      author: 'Ana Lima',
      publishedAt: '2025-03-01',
    });
    expect(page.text).toBe(
      '## Costs\n\nPrices fell by 12% & more.\n\n- Germany: 3.4\n\n- France: 3.1\n\nYear | Sales |\n\n2024 | 2,100 |\n\na  b\nc\n\nEnd\nline.',
    );
    // The DOM reader of the same body (its chrome removed) gives the same text.
    const { document } = parseHTML(PAGE);
    for (const el of document.querySelectorAll('nav, header, footer, [aria-hidden="true"]')) el.remove();
    expect(htmlToText(document.body!)).toBe(page.text);
  });

  it('is how a page past 1M characters is read, and stops soon after the characters it may keep', () => {
    const paragraphs = Array.from(
      { length: 60_000 },
      (_, i) => `<p>Paragraph ${i}: heat pumps cost less.</p>`,
    );
    const html = `<html><head><title>Long</title></head><body><main>${paragraphs.join('')}</main></body></html>`;
    expect(html.length).toBeGreaterThan(2_000_000);
    const page = extractHtml(html, 50_000);
    expect(page.title).toBe('Long');
    expect(page.text.startsWith('Paragraph 0: heat pumps cost less.\n\nParagraph 1:')).toBe(true);
    // It read a little past the limit (one piece of HTML), not the whole page.
    expect(page.text.length).toBeGreaterThanOrEqual(50_000);
    expect(page.text.length).toBeLessThan(150_000);
  });
});
