import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { type ExtractedText, tidyText } from './extracted-text.js';
import { htmlToText } from './html-to-text.js';

type Document = ReturnType<typeof parseHTML>['document'];

/** Below this many characters Readability has probably picked a fragment, not the article. */
const MIN_ARTICLE_CHARS = 250;
/** Page furniture, removed when the whole body is used instead of an article. */
const CHROME =
  'script, style, noscript, template, svg, nav, header, footer, aside, form, iframe, [role="navigation"], [aria-hidden="true"]';
/** Ads and consent banners that Readability's own heuristics let through when they sit inside the article. */
const CLUTTER =
  '.ad, .ads, .advert, .advertisement, [class*="ad-slot"], [class*="ad-container"], [id^="ad-"], [id^="google_ads"], [class*="sponsored"], [class*="cookie"], [id*="cookie"], [class*="newsletter"], [class*="paywall"]';

/**
 * The article of an HTML page (Readability on a linkedom DOM) with its title,
 * author and date; pages that are not articles (lists, docs indexes) fall back
 * to the body text without navigation, headers, footers and scripts.
 */
export function extractHtml(html: string): ExtractedText {
  const meta = metadata(parseHTML(html).document);
  // Readability changes the DOM it reads, so it gets its own copy.
  const article = new Readability(
    withoutAll(html, CLUTTER) as unknown as ConstructorParameters<typeof Readability>[0],
  ).parse();
  let text = '';
  if (article?.content) {
    text = htmlToText(parseHTML(`<html><body>${article.content}</body></html>`).document.body);
  }
  if (text.length < MIN_ARTICLE_CHARS) {
    const document = withoutAll(html, `${CHROME}, ${CLUTTER}`);
    const body = htmlToText(document.body ?? document.documentElement);
    if (body.length > text.length) text = body;
  }
  return {
    title: (article?.title || meta.title || '').trim(),
    text: tidyText(text),
    author: article?.byline?.trim() || meta.author,
    publishedAt: article?.publishedTime?.trim() || meta.publishedAt,
  };
}

function withoutAll(html: string, selector: string): Document {
  const { document } = parseHTML(html);
  for (const element of document.querySelectorAll(selector)) element.remove();
  return document;
}

function metadata(document: Document): { title?: string; author?: string; publishedAt?: string } {
  const content = (selector: string) =>
    document.querySelector(selector)?.getAttribute('content')?.trim() || undefined;
  return {
    title:
      content('meta[property="og:title"]') ??
      (document.querySelector('title')?.textContent?.trim() || undefined),
    author: content('meta[name="author"]'),
    publishedAt:
      content('meta[property="article:published_time"]') ??
      content('meta[name="date"]') ??
      (document.querySelector('time[datetime]')?.getAttribute('datetime') || undefined),
  };
}
