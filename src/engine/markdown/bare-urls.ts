/** Characters that end a sentence rather than a URL when they close one (GFM's rule, roughly). */
const TRAILING = new Set(['.', ',', ':', ';', '!', '?', '*', '_', '~', "'", '"']);
const CANDIDATE = /(?<![\w<"'=/@])https?:\/\/[^\s<>"'`[\]]+/g;

/**
 * Bare http(s) URLs in plain text: balanced parentheses stay in the URL
 * (`…/Foo_(bar)`), trailing punctuation and an unmatched `)` do not.
 */
export function bareUrls(text: string): { start: number; end: number; url: string }[] {
  const found: { start: number; end: number; url: string }[] = [];
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
