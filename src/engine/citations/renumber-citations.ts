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
 * Fenced and inline code are copied untouched. One left-to-right pass: each
 * character is looked at a bounded number of times, so hostile input such as
 * `[` followed by thousands of digits stays linear.
 */
export function renumberCitations(text: string, isKnown: (n: number) => boolean): RenumberResult {
  const assigned = new Map<number, number>();
  const order: number[] = [];
  let out = '';
  let i = 0;
  let fence: string | null = null;
  const unclosed = new Map<number, number>();
  let eol = -1;

  while (i < text.length) {
    const atLineStart = i === 0 || text[i - 1] === '\n';
    if (atLineStart) {
      const marker = fenceMarker(text, i);
      if (fence !== null) {
        const end = lineEnd(text, i);
        out += text.slice(i, end);
        if (marker?.startsWith(fence) && text.slice(i, end).trim() === marker) fence = null;
        i = end;
        continue;
      }
      if (marker !== null) {
        fence = marker;
        const end = lineEnd(text, i);
        out += text.slice(i, end);
        i = end;
        continue;
      }
    }
    const ch = text[i]!;
    if (ch === '`') {
      if (eol < i) {
        const nl = text.indexOf('\n', i);
        eol = nl === -1 ? text.length : nl;
      }
      const span = inlineCodeEnd(text, i, eol, unclosed);
      out += text.slice(i, span);
      i = span;
      continue;
    }
    if (ch in CLOSER) {
      const cite = parseCitation(text, i);
      if (cite) {
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
        continue;
      }
    }
    out += ch;
    i += 1;
  }
  return { text: out, order };
}

function parseCitation(text: string, start: number): { numbers: number[]; end: number } | null {
  const open = text[start]!;
  const close = CLOSER[open]!;
  const double = open !== '［' && text[start + 1] === open;
  let i = start + (double ? 2 : 1);
  const numbers: number[] = [];
  for (;;) {
    const digitsStart = i;
    while (i < text.length && i - digitsStart <= MAX_DIGITS && isDigit(text.charCodeAt(i))) i += 1;
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
  if (text[i] !== close) return null;
  i += 1;
  if (double) {
    if (text[i] !== close) return null;
    i += 1;
  }
  return { numbers, end: i };
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** "```" or "~~~" (possibly longer) opening a line after at most three spaces. */
function fenceMarker(text: string, lineStart: number): string | null {
  let i = lineStart;
  while (i - lineStart < 3 && text[i] === ' ') i += 1;
  const ch = text[i];
  if (ch !== '`' && ch !== '~') return null;
  let j = i;
  while (text[j] === ch) j += 1;
  return j - i >= 3 ? text.slice(i, j) : null;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl + 1;
}

/**
 * End of an inline code span starting at `start`, or just past the backticks
 * when it never closes on this line. `unclosed` remembers, per run length, the
 * line end where a search already failed, so no stretch is searched twice.
 */
function inlineCodeEnd(text: string, start: number, limit: number, unclosed: Map<number, number>): number {
  let ticks = start;
  while (text[ticks] === '`') ticks += 1;
  const run = text.slice(start, ticks);
  if (unclosed.get(run.length) === limit) return ticks;
  const close = text.slice(ticks, limit).indexOf(run);
  if (close === -1) {
    unclosed.set(run.length, limit);
    return ticks;
  }
  return ticks + close + run.length;
}
