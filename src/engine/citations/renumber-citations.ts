import { citationSpans } from './citation-spans.js';

export interface RenumberResult {
  text: string;
  /** Old numbers in order of first citation; the new number of `order[i]` is `i + 1`. */
  order: number[];
}

/**
 * Renumbers citations to [1]..[n] in order of first citation and removes
 * citations to numbers `isKnown` rejects; every form `citationSpans` reads
 * is written as `[n]` / `[n, m]`, and code is copied untouched.
 */
export function renumberCitations(
  text: string,
  isKnown: (n: number) => boolean,
  /** Numbers that keep the first places (an earlier version's sources, in its order), cited or not. */
  first: number[] = [],
): RenumberResult {
  const assigned = new Map<number, number>();
  const order: number[] = [];
  const assign = (n: number): number => {
    let mapped = assigned.get(n);
    if (mapped === undefined) {
      order.push(n);
      mapped = order.length;
      assigned.set(n, mapped);
    }
    return mapped;
  };
  for (const n of first) if (isKnown(n)) assign(n);

  let out = '';
  let position = 0;
  for (const cite of citationSpans(text)) {
    out += text.slice(position, cite.start);
    position = cite.end;
    const kept = [...new Set(cite.numbers.filter(isKnown).map(assign))];
    if (kept.length > 0) {
      out += `[${kept.join(', ')}]`;
    } else if (out.endsWith(' ') && /^($|[\s.,;:!?)\]}])/.test(text.slice(cite.end, cite.end + 1))) {
      // A removed citation must not leave "word ." behind.
      out = out.slice(0, -1);
    }
  }
  return { text: out + text.slice(position), order };
}
