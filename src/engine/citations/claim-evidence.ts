/**
 * Lexical evidence for a claim in a source's text: how much of the claim's
 * wording (its content words, and every number it states) one place in the
 * source carries. Cheap and deterministic: it settles the clear cases, and
 * the judge model is asked about the rest.
 */

export interface Evidence {
  /** Share of the claim's content words found in the best place (numbers count double). */
  score: number;
  /** Every number the claim states is in that place. */
  numbersFound: boolean;
  /** The source's sentence there that carries most of the claim. */
  quote: string;
  /** That place (up to three sentences), for the judge to read. */
  passage: string;
}

export type LexicalVerdict = 'supported' | 'unsupported' | 'uncertain';

/** At or above: the words are there. Below the lower bound: the source does not talk about it. */
const SUPPORTED = 0.7;
const UNRELATED = 0.3;
const WINDOW = 3;
const QUOTE_MAX = 240;

/** What lexical evidence alone says: clearly there, clearly not, or for the judge. */
export function lexicalVerdict(evidence: Evidence): LexicalVerdict {
  if (evidence.score >= SUPPORTED && evidence.numbersFound) return 'supported';
  if (evidence.score < UNRELATED) return 'unsupported';
  return 'uncertain';
}

/** A source's text read once for many claims. */
export interface SourceSentences {
  sentences: string[];
  terms: Set<string>[];
  numbers: Set<string>[];
  /** The whole text lower-cased on one line: where a quote is looked for word for word. */
  flat: string;
}

/** A text as `flat` holds it. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function readSource(text: string): SourceSentences {
  // A stop ends a sentence only before a space: "3.8", "gc.collect" and "e.g" stay whole.
  const sentences = text
    .split(/(?<=[.!?]["'”’)]?)\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 1);
  return {
    sentences,
    terms: sentences.map((s) => new Set(termsOf(s))),
    numbers: sentences.map((s) => new Set(numbersOf(s))),
    flat: flatten(text),
  };
}

/** The place in a source that carries most of the claim, or null when the claim has no words to look for. */
export function bestEvidence(claim: string, source: SourceSentences): Evidence | null {
  const terms = [...new Set(termsOf(claim))];
  const numbers = [...new Set(numbersOf(claim))];
  const weight = terms.length + numbers.length;
  if (weight === 0 || source.sentences.length === 0) return null;
  let best: { score: number; numbersFound: boolean; at: number; size: number } | null = null;
  for (let at = 0; at < source.sentences.length; at++) {
    for (let size = 1; size <= WINDOW && at + size <= source.sentences.length; size++) {
      const has = (sets: Set<string>[], t: string) =>
        sets.some((s, i) => i >= at && i < at + size && s.has(t));
      const foundNumbers = numbers.filter((n) => has(source.numbers, n)).length;
      const foundTerms = terms.filter((t) => has(source.terms, t) || has(source.numbers, t)).length;
      const score = (foundTerms + foundNumbers * 2) / (terms.length + numbers.length * 2);
      // A longer window must carry more to be preferred: the shortest place that says it wins.
      if (!best || score > best.score + 1e-9) {
        best = { score, numbersFound: foundNumbers === numbers.length, at, size };
      }
    }
  }
  if (!best) return null;
  const window = source.sentences.slice(best.at, best.at + best.size);
  const quoteAt = bestSentence(terms, numbers, source, best.at, best.size);
  return {
    score: best.score,
    numbersFound: best.numbersFound,
    quote: shorten(source.sentences[quoteAt]!),
    passage: window.join(' '),
  };
}

function bestSentence(terms: string[], numbers: string[], source: SourceSentences, at: number, size: number) {
  let best = at;
  let bestCount = -1;
  for (let i = at; i < at + size; i++) {
    const count =
      terms.filter((t) => source.terms[i]!.has(t)).length +
      numbers.filter((n) => source.numbers[i]!.has(n)).length * 2;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  }
  return best;
}

/** A quote as shown under its source: one line, no heading or list marks, at most QUOTE_MAX characters. */
export function shorten(text: string): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/^(?:[#>*-]+\s*)+/, '')
    .trim();
  return flat.length <= QUOTE_MAX ? flat : `${flat.slice(0, QUOTE_MAX - 1).replace(/\s+\S*$/, '')}…`;
}

/** Content words, lower-cased and lightly stemmed (both sides the same way, so "grew"/"grows" differ but "prices"/"price" do not). */
export function termsOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? [])
    .map((w) => w.replace(/['’]s$/, '').replace(/['’]/g, ''))
    .filter((w) => w.length > 2 && !STOPWORDS.has(w))
    .map(stem);
}

/** Numbers as stated: "1,200" and "1200" are the same; "12%" is 12; "3.50" is 3.5; "three" is 3. */
export function numbersOf(text: string): string[] {
  const digits = (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => {
    const plain = n.replace(/,(?=\d{3}\b)/g, '').replace(/,$/, '');
    return plain.includes('.') ? plain.replace(/\.?0+$/, '') : plain;
  });
  const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).flatMap((w) => {
    const n = NUMBER_WORDS.indexOf(w);
    return n > 0 ? [String(n)] : [];
  });
  return [...digits, ...words];
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const STOPWORDS = new Set(
  `the and for are but not you all any can had her was one our out has him his how its may new now old see two who
   did get let put say she too use that with have this will your from they know want been good much some time very
   when come here just like long make many more most over such take than them well were what also into only other
   then there these their those would could should about after again against because before being below between
   both does doing down during each few further itself more once same so than through under until which while whom
   why yours above off own very can will just don shouldn now which where within without upon per via among however
   although though whereas thus therefore according reported reports report says said stated states noted notes`.split(
    /\s+/,
  ),
);
