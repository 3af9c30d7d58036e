import type { Root } from 'mdast';
import { codeRanges, span, walk } from './read-markdown.js';

/** Characters that end a sentence rather than a URL when they close one (GFM's rule, roughly). */
const TRAILING = new Set(['.', ',', ':', ';', '!', '?', '*', '_', '~', "'", '"']);
const CANDIDATE = /(?<![\w<"'=/@])https?:\/\/[^\s<>"'`[\]]+/g;

export interface BareUrl {
  start: number;
  end: number;
  url: string;
}

/**
 * Bare http(s) URLs in Markdown, outside code and outside written links
 * (`[a](…)`, `![a](…)`, `<…>`, definitions): balanced parentheses stay in the
 * URL (`…/Foo_(bar)`), trailing punctuation and an unmatched `)` do not.
 */
export function bareUrls(markdown: string, tree: Root): BareUrl[] {
  const covered = codeRanges(tree);
  walk(tree, (node) => {
    if (node.type !== 'link' && node.type !== 'image' && node.type !== 'definition') return undefined;
    const [start, end] = span(node);
    // A link mdast made of a bare URL in text starts with the URL itself: it is what we look for.
    if (/^https?:/i.test(markdown.slice(start, start + 6))) return 'skip';
    covered.push([start, end]);
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
    const url = match[0].slice(0, end);
    if (/^https?:\/\/[^/?#]/.test(url)) found.push({ start: match.index, end: match.index + end, url });
  }
  return found;
}
