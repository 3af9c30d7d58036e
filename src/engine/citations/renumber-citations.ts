import { codeRanges, readMarkdown } from '../markdown/read-markdown.js';

const CLOSER: Record<string, string> = { '[': ']', '【': '】', '［': '］' };
const MAX_DIGITS = 6;

export interface RenumberResult {
  text: string;
  /** Old numbers in order of first citation; the new number of `order[i]` is `i + 1`. */
  order: number[];
}

/**
 * Renumbers citations to [1]..[n] in order of first citation and removes
 * citations to numbers `isKnown` rejects. Accepts `[n]`, `[n, m]`, `[[n]]`,
 * `【n】`, `【【n】】` and `［n］`, and writes them all as `[n]` / `[n, m]`.
 * Code, as the shared Markdown reading finds it (fenced, in list items and
 * quotes, indented, inline), is copied untouched. Outside code, one
 * left-to-right pass: each character is looked at a bounded number of times,
 * so hostile input such as `[` followed by thousands of digits stays linear.
 */
export function renumberCitations(
  text: string,
  isKnown: (n: number) => boolean,
  /** Numbers that keep the first places (an earlier version's sources, in its order), cited or not. */
  first: number[] = [],
): RenumberResult {
  const assigned = new Map<number, number>();
  const order: number[] = [];
  for (const n of first) {
    if (!isKnown(n) || assigned.has(n)) continue;
    order.push(n);
    assigned.set(n, order.length);
  }
  let out = '';

  const renumber = (from: number, to: number) => {
    let i = from;
    while (i < to) {
      const ch = text[i]!;
      const cite = ch in CLOSER ? parseCitation(text, i, to) : null;
      if (!cite) {
        out += ch;
        i += 1;
        continue;
      }
      const kept: number[] = [];
      for (const n of cite.numbers) {
        if (!isKnown(n)) continue;
        let mapped = assigned.get(n);
        if (mapped === undefined) {
          order.push(n);
          mapped = order.length;
          assigned.set(n, mapped);
        }
        if (!kept.includes(mapped)) kept.push(mapped);
      }
      if (kept.length > 0) {
        out += `[${kept.join(', ')}]`;
      } else if (out.endsWith(' ') && /^($|[\s.,;:!?)\]}])/.test(text.slice(cite.end, cite.end + 1))) {
        // A removed citation must not leave "word ." behind.
        out = out.slice(0, -1);
      }
      i = cite.end;
    }
  };

  let position = 0;
  for (const [start, end] of codeRanges(readMarkdown(text))) {
    renumber(position, start);
    out += text.slice(start, end);
    position = end;
  }
  renumber(position, text.length);
  return { text: out, order };
}

function parseCitation(
  text: string,
  start: number,
  limit: number,
): { numbers: number[]; end: number } | null {
  const open = text[start]!;
  const close = CLOSER[open]!;
  const double = open !== '［' && text[start + 1] === open;
  let i = start + (double ? 2 : 1);
  const numbers: number[] = [];
  for (;;) {
    const digitsStart = i;
    while (i < limit && i - digitsStart <= MAX_DIGITS && isDigit(text.charCodeAt(i))) i += 1;
    const digits = i - digitsStart;
    if (digits === 0 || digits > MAX_DIGITS) return null;
    numbers.push(Number(text.slice(digitsStart, i)));
    if (text[i] !== ',') break;
    i += 1;
    let spaces = 0;
    while (text[i] === ' ' && spaces < 2) {
      i += 1;
      spaces += 1;
    }
  }
  if (i >= limit || text[i] !== close) return null;
  i += 1;
  if (double) {
    if (i >= limit || text[i] !== close) return null;
    i += 1;
  }
  return { numbers, end: i };
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
