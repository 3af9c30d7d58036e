import type { Nodes, Root } from 'mdast';
import { codeRanges, span, walk } from './read-markdown.js';

/** Characters that end a sentence rather than a URL when they close one (GFM's rule, roughly). */
const TRAILING = new Set(['.', ',', ':', ';', '!', '?', '*', '_', '~', "'", '"']);
/**
 * A URL wherever it starts: after a quote, `=`, `/` or `@` too (matches do not
 * overlap, so a URL inside another one's query stays part of it), and GFM's
 * `www.` form. `|` ends one: Slack's `<url|label>` syntax typed as text.
 */
const CANDIDATE = /(?:https?:\/\/|(?<![\p{L}\p{N}.-])www\.)[^\s<>"'`[\]|\\]+/giu;

export interface BareUrl {
  start: number;
  end: number;
  /** With its scheme (`www.` is read as http://www.). */
  url: string;
}

/**
 * Bare http(s) and `www.` URLs in Markdown, outside code and outside written
 * links (`[a](…)`, `![a](…)`, `<…>`, definitions): balanced parentheses stay
 * in the URL (`…/Foo_(bar)`), trailing punctuation and an unmatched `)` do not.
 */
export function bareUrls(markdown: string, tree: Root): BareUrl[] {
  const covered = codeRanges(tree);
  walk(tree, (node) => {
    if (!isWrittenLink(node, markdown)) return undefined;
    covered.push(span(node));
    return 'skip';
  });
  covered.sort((a, b) => a[0] - b[0]);
  const found: BareUrl[] = [];
  let position = 0;
  for (const [start, end] of [...covered, [markdown.length, markdown.length] as [number, number]]) {
    if (start > position) {
      for (const url of urlsIn(markdown.slice(position, start))) {
        found.push({ start: position + url.start, end: position + url.end, url: url.url });
      }
    }
    position = Math.max(position, end);
  }
  return found;
}

/**
 * A link written as link syntax (`[…](…)`, `![…](…)`, `<…>`, a definition),
 * unlike one mdast made of a bare URL in text, which starts with the URL itself.
 */
export function isWrittenLink(node: Nodes, markdown: string): boolean {
  if (node.type === 'definition') return true;
  // mdast's bare-URL links made inside a text node may carry no position at all.
  if ((node.type !== 'link' && node.type !== 'image') || !node.position) return false;
  return '[!<'.includes(markdown[span(node)[0]] ?? '');
}

function urlsIn(text: string): BareUrl[] {
  const found: BareUrl[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    let end = match[0].length;
    let open = 0;
    let close = 0;
    for (const ch of match[0]) {
      if (ch === '(') open += 1;
      else if (ch === ')') close += 1;
    }
    for (;;) {
      const last = match[0][end - 1]!;
      if (TRAILING.has(last)) end -= 1;
      else if (last === ')' && close > open) {
        end -= 1;
        close -= 1;
      } else break;
    }
    const written = match[0].slice(0, end);
    const url = /^www\./i.test(written) ? `http://${written}` : written;
    if (/^https?:\/\/[^/?#.]/i.test(url)) found.push({ start: match.index, end: match.index + end, url });
  }
  return found;
}
