import { codeRanges, readMarkdown } from '../../ports/markdown/read-markdown.js';

const CLOSER: Record<string, string> = { '[': ']', '【': '】', '［': '］' };
const MAX_DIGITS = 6;

/** A citation as written: `[n]`, `[n, m]`, `[[n]]`, `【n】`, `【【n】】` or `［n］`, at [start, end). */
export interface CitationSpan {
  start: number;
  end: number;
  numbers: number[];
}

/**
 * Every citation in a report outside code (as the shared Markdown reading
 * finds it: fenced, in list items and quotes, indented, inline), in order.
 * One left-to-right pass: each character is looked at a bounded number of
 * times, so hostile input such as `[` followed by thousands of digits stays
 * linear.
 */
export function citationSpans(text: string): CitationSpan[] {
  const spans: CitationSpan[] = [];
  const scan = (from: number, to: number) => {
    let i = from;
    while (i < to) {
      const cite = text[i]! in CLOSER ? parseCitation(text, i, to) : null;
      if (!cite) {
        i += 1;
        continue;
      }
      spans.push({ start: i, ...cite });
      i = cite.end;
    }
  };
  let position = 0;
  for (const [start, end] of codeRanges(readMarkdown(text))) {
    scan(position, start);
    position = end;
  }
  scan(position, text.length);
  return spans;
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
