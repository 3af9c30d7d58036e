import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { type ExtractedText, tidyText } from './extracted-text.js';
import { streamHtmlText } from './html-stream-text.js';
import { htmlToText } from './html-to-text.js';
import { removeClutter } from './remove-clutter.js';

type Document = ReturnType<typeof parseHTML>['document'];

/** Below this many characters Readability has probably picked a fragment, not the article. */
const MIN_ARTICLE_CHARS = 250;
/**
 * Readability's work grows faster than a page (a 2.6 MB listing took 15 s):
 * beyond this many elements (a huge listing or data page, rarely an article)
 * the page's body text is read instead, in a fraction of the time. Counted on
 * the HTML, since its own maxElemsToParse counts nothing on linkedom.
 */
const MAX_ARTICLE_ELEMENTS = 30_000;
/**
 * Past this many characters of HTML a page is read without a DOM (linkedom's
 * takes about 60 bytes a character: a 7 MB page rose the process by 450 MB):
 * a streaming parse whose memory follows the text kept.
 */
const MAX_DOM_CHARS = 1_000_000;

/**
 * The article of an HTML page (Readability on a linkedom DOM) with its title,
 * author and date; pages that are not articles (lists, docs indexes) fall back
 * to the body text without navigation, headers, footers and scripts. A page
 * past MAX_DOM_CHARS is read as a stream, up to `maxChars` characters.
 */
export function extractHtml(html: string, maxChars = Number.POSITIVE_INFINITY): ExtractedText {
  if (html.length > MAX_DOM_CHARS) return streamHtmlText(html, maxChars);
  // One DOM at a time: the metadata is read before Readability changes the DOM it is given.
  const first = parse(html);
  const meta = metadata(first);
  const tried = elementCount(html) <= MAX_ARTICLE_ELEMENTS;
  const article = tried ? readArticle(first) : null;
  let text = '';
  if (article?.content) {
    text = htmlToText(parseHTML(`<html><body>${article.content}</body></html>`).document.body);
  }
  if (text.length < MIN_ARTICLE_CHARS) {
    const document = tried ? parse(html) : first;
    removeClutter(document, { chrome: true });
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

/** Readability on a DOM no one reads after (it changes it); null when it finds no article or gives up. */
function readArticle(document: Document): ReturnType<Readability['parse']> {
  removeClutter(document, { chrome: false });
  try {
    return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  } catch {
    return null;
  }
}

/** Start tags in the HTML, counted up to one past the limit. */
function elementCount(html: string): number {
  const tag = /<[a-z]/gi;
  let n = 0;
  while (n <= MAX_ARTICLE_ELEMENTS && tag.exec(html)) n += 1;
  return n;
}

/**
 * A DOM with an html and a body element: text served as HTML (or a fragment)
 * parses to a document without them, which Readability refuses.
 */
function parse(html: string): Document {
  const { document } = parseHTML(html);
  if (document.documentElement && document.body) return document;
  return parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document;
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
