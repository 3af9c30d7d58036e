import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/search/extract/extract-html.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/pages/${name}`, import.meta.url), 'utf8');

describe('extractHtml', () => {
  it('keeps the article and drops navigation, ads, scripts, cookie banner, comments and footer', () => {
    const page = extractHtml(fixture('news-article.html'));
    expect(page.title).toBe('Grid-scale batteries doubled in 2024');
    expect(page.author).toBe('Priya Natarajan');
    expect(page.publishedAt).toBe('2025-02-11T09:30:00Z');
    expect(page.text).toContain(
      'Utility-scale battery storage capacity worldwide roughly doubled during 2024',
    );
    expect(page.text).toContain('## Where the batteries went');
    expect(page.text).toContain('- China: about 74 GW of new capacity');
    expect(page.text).toContain('Longer-duration technologies, including iron-air and flow batteries');
    // Paragraphs stay separate blocks rather than running together.
    expect(page.text).toMatch(/competitive with gas peaker plants in several markets\.\n\n/);
    for (const junk of [
      'Subscribe',
      'ADVERTISEMENT',
      'SUPER SALE',
      'gtag',
      'dataLayer',
      'cookies',
      'All rights reserved',
      'First!',
      'premium newsletter',
    ]) {
      expect(page.text, junk).not.toContain(junk);
    }
  });

  it('falls back to the body text of pages that are not articles, keeping tables readable', () => {
    const page = extractHtml(fixture('docs-index.html'));
    expect(page.title).toContain('Configuration reference');
    expect(page.text).toContain('workers | 4 | Number of worker threads');
    expect(page.text).toContain('widgetd --listen :9090 --workers 8');
    expect(page.text).not.toContain('Install');
    expect(page.text).not.toContain('Built with Sphinx');
  });
});
