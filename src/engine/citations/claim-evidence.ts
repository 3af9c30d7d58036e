/**
 * Lexical evidence for a claim in a source's text: where in the source the
 * claim's words and figures are, the sentences there that say it, and
 * whether those alone settle the pair. Cheap and deterministic: it settles
 * only clear cases (the words there, every figure there, said the same way
 * round, in the same script); the judge model is asked about the rest, and
 * reads the passage found here. A negated claim is never settled by words:
 * "A, not B" and "B, not A" have the same words.
 */
import { quoteAround } from './source-quote.js';
import { type Cue, cuesOf, figuresOf, type Script, sameWayRound, scriptOf, termsOf } from './text-terms.js';

export interface Evidence {
  /** Share of the claim's words and figures (figures twice) at the best place: how much the source talks about it. */
  reach: number;
  /** Share of the claim's content words in the quoted sentence (0 when the quote spans several). */
  score: number;
  /** How many content words the claim has (a claim of one or two words is never settled by them). */
  claimTerms: number;
  /** Every figure the claim states is in the quoted sentence. */
  figuresFound: boolean;
  /** The quoted sentences say it the same way round (negated when the claim is; moving the same way). */
  sameWayRound: boolean;
  /** The claim says something is not so: which part is negated, words in any order cannot tell. */
  negated: boolean;
  /** Claim and source are in one script: only then can words decide anything. */
  sameScript: boolean;
  /** The source's sentences there that carry most of the claim, as the source writes them; '' when they are not prose (a table row, a title). */
  quote: string;
  /** That place (up to three sentences) for the judge to read; null when nothing of the claim is in the source. */
  passage: string | null;
}

export type LexicalVerdict = 'supported' | 'unsupported' | 'uncertain';

/** At or above: the words are there. Below the lower bound: the source does not talk about it. */
const SUPPORTED = 0.7;
const UNRELATED = 0.3;
/** Fewer content words than this are too few to settle a claim on. */
const FEWEST_TERMS = 3;
const WINDOW = 3;

/** What lexical evidence alone says: clearly there, clearly not, or for the judge. */
export function lexicalVerdict(evidence: Evidence): LexicalVerdict {
  if (!evidence.sameScript) return 'uncertain';
  if (
    !evidence.negated &&
    evidence.score >= SUPPORTED &&
    evidence.claimTerms >= FEWEST_TERMS &&
    evidence.figuresFound &&
    evidence.sameWayRound &&
    evidence.quote
  )
    return 'supported';
  if (evidence.reach < UNRELATED) return 'unsupported';
  return 'uncertain';
}

/** One sentence of a source: where it is in the text, and whether it is prose a quote can be. */
export interface Sentence {
  start: number;
  end: number;
  text: string;
  prose: boolean;
}

/** A source's text read once for many claims. */
export interface SourceSentences {
  text: string;
  sentences: Sentence[];
  script: Script;
  terms: Set<string>[];
  figures: Set<string>[];
  /** Which sentences hold a term or a figure. */
  index: Map<string, number[]>;
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

export function readSource(text: string): SourceSentences {
  const sentences: Sentence[] = [];
  // Lines first: a heading, a list item or a table row ends where its line does.
  for (const line of text.matchAll(/[^\n]+/g)) {
    for (const { segment, index } of SENTENCES.segment(line[0])) {
      const trimmed = segment.trim();
      if (trimmed.length <= 1) continue;
      const start = line.index + index + segment.indexOf(trimmed);
      sentences.push({ start, end: start + trimmed.length, text: trimmed, prose: isProse(trimmed) });
    }
  }
  const terms = sentences.map((s) => new Set(termsOf(s.text)));
  const figures = sentences.map((s) => new Set(figuresOf(s.text, true)));
  const index = new Map<string, number[]>();
  const add = (key: string, i: number) => {
    const list = index.get(key);
    if (!list) index.set(key, [i]);
    else if (list.at(-1) !== i) list.push(i);
  };
  terms.forEach((set, i) => {
    for (const t of set) add(`t:${t}`, i);
  });
  figures.forEach((set, i) => {
    for (const f of set) add(`f:${f}`, i);
  });
  return { text, sentences, script: scriptOf(text), terms, figures, index };
}

/**
 * Prose a quote can be: not a table row, a heading or a title — a sentence
 * of some length that ends as sentences do (or is long enough to be one).
 */
function isProse(sentence: string): boolean {
  if (/^#/.test(sentence) || (sentence.match(/\|/g) ?? []).length >= 2 || sentence.includes('\t'))
    return false;
  const unspaced = (
    sentence.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []
  ).length;
  const words = sentence.split(/\s+/).length + unspaced / 2;
  if (words < 6) return false;
  return /[.!?。！？…:;)"'”’»」]$/.test(sentence) || sentence.length >= 80;
}

/** A claim read once for its sources. */
export interface ClaimTerms {
  text: string;
  terms: string[];
  figures: string[];
  cues: Set<Cue>;
  script: Script;
}

export function readClaim(text: string): ClaimTerms {
  return {
    text,
    terms: [...new Set(termsOf(text))],
    figures: [...new Set(figuresOf(text))],
    cues: cuesOf(text),
    script: scriptOf(text),
  };
}

/** The place in a source that carries most of the claim, or null when the claim has nothing to look for. */
export function bestEvidence(claimText: string, source: SourceSentences): Evidence | null {
  const claim = readClaim(claimText);
  const { terms, figures } = claim;
  if (terms.length + figures.length === 0 || source.sentences.length === 0) return null;
  const sameScript = claim.script === source.script;
  const near = new Set<number>();
  for (const key of [...terms.map((t) => `t:${t}`), ...figures.map((f) => `f:${f}`)])
    for (const i of source.index.get(key) ?? []) near.add(i);
  let best: { weight: number; at: number; size: number } | null = null;
  for (const hit of [...near].sort((a, b) => a - b)) {
    for (let at = Math.max(0, hit - WINDOW + 1); at <= hit; at++) {
      for (let size = 1; size <= WINDOW && at + size <= source.sentences.length; size++) {
        const weight = carried(claim, source, at, size);
        // A longer window must carry more to be preferred: the shortest place that says it wins.
        if (!best || weight > best.weight + 1e-9) best = { weight, at, size };
      }
    }
  }
  const negated = claim.cues.has('negation');
  const miss = { claimTerms: terms.length, sameScript, negated, quote: '', passage: null };
  if (!best || best.weight === 0)
    return { ...miss, reach: 0, score: 0, figuresFound: figures.length === 0, sameWayRound: false };
  const window = source.sentences.slice(best.at, best.at + best.size);
  // The quote: the window's sentence carrying most of the claim, with those carrying a figure it lacks.
  const weights = window.map((_, i) => carried(claim, source, best!.at + i, 1));
  const top = weights.indexOf(Math.max(...weights));
  const needed = window.map((_, i) =>
    claim.figures.some(
      (f) => source.figures[best!.at + i]!.has(f) && !source.figures[best!.at + top]!.has(f),
    ),
  );
  const from = Math.min(top, needed.indexOf(true) < 0 ? top : needed.indexOf(true));
  const to = Math.max(top, needed.lastIndexOf(true));
  const quoted = window.slice(from, to + 1);
  const quote = quoted.every((s) => s.prose)
    ? quoteAround(source.text, quoted[0]!.start, quoted.at(-1)!.end, claim)
    : '';
  // Settled on one sentence only: words and figures gathered from several can belong to different facts.
  const settling = quoted.length === 1 && quote ? quote : '';
  return {
    ...judgedBy(claim, settling),
    reach: best.weight,
    claimTerms: terms.length,
    sameScript,
    negated,
    quote,
    passage: window.map((s) => s.text).join(' '),
  };
}

/** How much of the claim a text carries, by the measures that settle it. */
function judgedBy(
  claim: ClaimTerms,
  text: string,
): Pick<Evidence, 'score' | 'figuresFound' | 'sameWayRound'> {
  if (!text) return { score: 0, figuresFound: claim.figures.length === 0, sameWayRound: false };
  const terms = new Set(termsOf(text));
  const figures = new Set(figuresOf(text, true));
  return {
    score: claim.terms.length ? claim.terms.filter((t) => terms.has(t)).length / claim.terms.length : 0,
    figuresFound: claim.figures.every((f) => figures.has(f)),
    sameWayRound: sameWayRound(claim.cues, cuesOf(text)),
  };
}

/** Terms and figures (twice: they locate a fact) of the claim found in sentences at..at+size, as a share. */
function carried(claim: ClaimTerms, source: SourceSentences, at: number, size: number): number {
  const has = (sets: Set<string>[], key: string) => {
    for (let i = at; i < at + size; i++) if (sets[i]!.has(key)) return true;
    return false;
  };
  const terms = claim.terms.filter((t) => has(source.terms, t)).length;
  const figures = claim.figures.filter((f) => has(source.figures, f)).length;
  return (terms + figures * 2) / (claim.terms.length + claim.figures.length * 2);
}
