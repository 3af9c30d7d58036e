import { Parser } from 'htmlparser2';
import { type ExtractedText, tidyText } from './extracted-text.js';
import { joinText, marks, SKIP, spaced } from './html-to-text.js';

/** Page furniture left out of a page read without a DOM (as removeClutter's chrome). */
const CHROME = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM']);
/** The HTML is fed in pieces this long, so reading stops soon after enough text is in hand. */
const PIECE = 64 * 1024;

/**
 * A large page's text without building a DOM: a streaming parse (memory in
 * proportion to the text kept, not to the page), the same structure as
 * htmlToText (headings, lists, table rows, paragraphs), page furniture and
 * scripts left out, and the title, author and date its head declares.
 * Reading stops once `maxChars` characters are in hand.
 */
export function streamHtmlText(html: string, maxChars: number): ExtractedText {
  const out: string[] = [];
  let chars = 0;
  /** Open elements, each with whether its text is left out (scripts, furniture); how many such are open. */
  const open: { name: string; skips: boolean }[] = [];
  let skipping = 0;
  let pre = 0;
  let title = '';
  let inTitle = false;
  const meta: { title?: string; author?: string; publishedAt?: string } = {};
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        const name = tag.toUpperCase();
        if (name === 'TITLE') inTitle = true;
        if (name === 'META') readMeta(attributes, meta);
        if (name === 'TIME' && attributes.datetime) meta.publishedAt ??= attributes.datetime;
        const skips = SKIP.has(name) || CHROME.has(name) || attributes['aria-hidden'] === 'true';
        open.push({ name, skips });
        if (skips) skipping++;
        else if (!skipping) {
          if (name === 'PRE') pre++;
          out.push(marks(name)[0]);
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (!skipping) {
          const piece = spaced(text, pre > 0);
          out.push(piece);
          chars += piece.length;
        }
      },
      onclosetag(tag) {
        const name = tag.toUpperCase();
        // Only what was opened closes (htmlparser2 closes implied and void elements itself).
        if (open.at(-1)?.name !== name) return;
        const { skips } = open.pop()!;
        if (name === 'TITLE') inTitle = false;
        if (skips) skipping--;
        else if (!skipping) {
          if (name === 'PRE') pre--;
          out.push(marks(name)[1]);
        }
      },
    },
    { decodeEntities: true },
  );
  for (let at = 0; at < html.length && chars <= maxChars; at += PIECE)
    parser.write(html.slice(at, at + PIECE));
  parser.end();
  return {
    title: (meta.title ?? title).trim(),
    text: tidyText(joinText(out)),
    ...(meta.author ? { author: meta.author } : {}),
    ...(meta.publishedAt ? { publishedAt: meta.publishedAt } : {}),
  };
}

function readMeta(
  attributes: Record<string, string>,
  meta: { title?: string; author?: string; publishedAt?: string },
) {
  const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
  const content = attributes.content?.trim();
  if (!content) return;
  if (key === 'og:title') meta.title ??= content;
  else if (key === 'author') meta.author ??= content;
  else if (key === 'article:published_time' || key === 'date') meta.publishedAt ??= content;
}
