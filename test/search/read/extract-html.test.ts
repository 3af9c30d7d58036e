import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../src/search/read/extract-html.js';

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

  const ARTICLE = `<h1>Heat pumps in 2025</h1>${'<p>Heat pumps moved more heat per unit of electricity than ever before, and installers reported record demand across Europe. '.repeat(4)}</p>`;
  it.each([
    [
      'a class on <html>',
      `<html class="flag-newsletterInline-on"><body><article>${ARTICLE}</article></body></html>`,
    ],
    [
      'a class on <body>',
      `<html><body class="has-paywall-meter"><article>${ARTICLE}</article></body></html>`,
    ],
    [
      'a consent class on <body>',
      `<html><body class="cookie-consent-pending"><div>${ARTICLE}</div></body></html>`,
    ],
    ['an ad-looking wrapper', `<html><body><div id="ad-portal"><div>${ARTICLE}</div></div></body></html>`],
    [
      'a main element',
      `<html><body><main class="not-sponsored sponsored"><div>${ARTICLE}</div></main></body></html>`,
    ],
    ['text served as HTML', ARTICLE.replace(/<[^>]+>/g, '')],
  ])('never removes the page because of %s', (_, html) => {
    expect(extractHtml(html).text).toContain('record demand across Europe');
  });

  it('removes ads and banners inside the article by class or id token, not by substring', () => {
    const html = `<html><body><article>${ARTICLE}
      <div class="ad-slot-3">BUY NOW</div><div id="google_ads_iframe_1">CHEAP FLIGHTS</div>
      <div class="newsletter-signup">Sign up for our letter</div><div class="cookie-banner">We use cookies</div>
      <p class="headline-advisory">Advisory boards met in March to review the figures and agreed they were sound overall.</p>
    </article></body></html>`;
    const text = extractHtml(html).text;
    for (const junk of ['BUY NOW', 'CHEAP FLIGHTS', 'Sign up', 'We use cookies'])
      expect(text).not.toContain(junk);
    expect(text).toContain('Advisory boards met in March');
  });
});
