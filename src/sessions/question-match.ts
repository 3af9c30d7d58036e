import { figuresOf, termsOf } from '../engine/citations/text-terms.js';

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

/**
 * Whether a new question asks what an earlier one asked: close enough in
 * words, and the same in its specifics — the same figures (years, amounts)
 * and the same names and labels (places, organisations, acronyms, "region
 * A"). "…in Europe in 2025?" and "…in 2030?" share every word but ask
 * different things; so do "…in Leeds?" and "…in York?".
 */
export function sameQuestion(a: string, b: string): boolean {
  if (questionSimilarity(a, b) < SAME_QUESTION) return false;
  const [x, y] = [figuresOf(a), figuresOf(b)].map((n) => new Set(n));
  if (x!.size !== y!.size || [...x!].some((n) => !y!.has(n))) return false;
  // A name in either (a capitalised word past the first: "Leeds", "EU", "A") must be a word of the other.
  return namesOf(a).every((n) => wordsOf(b).has(n)) && namesOf(b).every((n) => wordsOf(a).has(n));
}

/** Capitalised words past a sentence's first, cut to five letters ("Europe" and "European" meet). */
function namesOf(question: string): string[] {
  return [...question.matchAll(/(?<![.?!:]\s|^|\p{L})\p{Lu}[\p{L}\d-]*/gu)]
    .map((m) => m[0])
    .filter((w) => w !== 'I')
    .map((w) => w.toLowerCase().slice(0, 5));
}

function wordsOf(question: string): Set<string> {
  return new Set((question.match(/\p{L}[\p{L}\d-]*/gu) ?? []).map((w) => w.toLowerCase().slice(0, 5)));
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
