import { termsOf } from '../engine/citations/claim-evidence.js';

/** At or above, a new question is taken to ask what an earlier one asked. */
export const SAME_QUESTION = 0.65;

/**
 * How closely two questions ask the same thing: the content words they share
 * (lower-cased, cut to five letters), over the geometric mean of their counts
 * (1: the same words). Question words and filler ("what", "how", "the") do
 * not count.
 */
export function questionSimilarity(a: string, b: string): number {
  const x = keys(a);
  const y = keys(b);
  if (x.size === 0 || y.size === 0) return 0;
  const shared = [...x].filter((t) => y.has(t)).length;
  return shared / Math.min(x.size, y.size) ** 0.5 / Math.max(x.size, y.size) ** 0.5;
}

/** Content words cut to five letters, so "change"/"changed" and "Europe"/"European" meet. */
function keys(question: string): Set<string> {
  return new Set(
    termsOf(question)
      .filter((t) => !FILLER.has(t))
      .map((t) => t.slice(0, 5)),
  );
}

const FILLER = new Set([
  'why',
  'whi',
  'tell',
  'explain',
  'know',
  'best',
  'way',
  'like',
  'look',
  'need',
  'compar',
  'compare',
]);
