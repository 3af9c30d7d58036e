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
import type { SourceSentences } from './source-sentences.js';
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

/**
 * The place in a source that carries most of the claim, or null when the
 * claim has nothing to look for. `alsoTerms`: the claim's key terms in the
 * source's language (a source in another language), which help find the
 * place but never settle the pair: the claim keeps its own script.
 */
export function bestEvidence(
  claimText: string,
  source: SourceSentences,
  alsoTerms: string[] = [],
): Evidence | null {
  const claim = readClaim(claimText);
  if (alsoTerms.length) claim.terms = [...new Set([...claim.terms, ...alsoTerms.flatMap((t) => termsOf(t))])];
  const { terms, figures } = claim;
  if (terms.length + figures.length === 0 || source.sentences.length === 0) return null;
  const sameScript = claim.script === source.script;
  const near = new Set<number>();
  for (const key of [...terms.map((t) => `t:${t}`), ...figures.map((f) => `f:${f}`)])
    for (const i of source.index.get(key) ?? []) near.add(i);
  let best: (Place & { weight: number }) | null = null;
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
    passage: passageOf(source, excerptsFor(claim, source, best, near)),
  };
}

/** A place in a source: `size` sentences from `at`. */
interface Place {
  at: number;
  size: number;
}

/** The most places the judge reads for one claim in one source. */
const MOST_EXCERPTS = 3;

/**
 * The best place, then (a claim of several facts) the places holding what it
 * lacks: a figure of the claim, or a good part of its words, each added place
 * the one sentence that carries most of what is still missing.
 */
function excerptsFor(claim: ClaimTerms, source: SourceSentences, best: Place, near: Set<number>): Place[] {
  const places = [best];
  const has = (i: number, key: string) =>
    key.startsWith('f:') ? source.figures[i]!.has(key.slice(2)) : source.terms[i]!.has(key.slice(2));
  const keys = [...claim.figures.map((f) => `f:${f}`), ...claim.terms.map((t) => `t:${t}`)];
  const covered = new Set(keys.filter((k) => inPlaces(places, (i) => has(i, k))));
  const enoughTerms = Math.max(3, Math.ceil(claim.terms.length / 4));
  while (places.length < MOST_EXCERPTS) {
    let pick: { at: number; figures: number; terms: number } | null = null;
    for (const i of near) {
      if (inPlaces(places, (j) => j === i)) continue;
      const gained = keys.filter((k) => !covered.has(k) && has(i, k));
      const figures = gained.filter((k) => k.startsWith('f:')).length;
      const terms = gained.length - figures;
      if (!pick || figures * 2 + terms > pick.figures * 2 + pick.terms) pick = { at: i, figures, terms };
    }
    if (!pick || (pick.figures === 0 && pick.terms < enoughTerms)) break;
    places.push({ at: pick.at, size: 1 });
    for (const k of keys) if (has(pick.at, k)) covered.add(k);
  }
  return places;
}

function inPlaces(places: Place[], test: (i: number) => boolean): boolean {
  return places.some((p) => Array.from({ length: p.size }, (_, k) => p.at + k).some(test));
}

/**
 * The places as the judge reads them, in page order: one place as its text;
 * several, each numbered as a separate excerpt. A table row comes under its
 * table's header (once per run of rows of one table).
 */
function passageOf(source: SourceSentences, places: Place[]): string {
  const sorted = [...places].sort((a, b) => a.at - b.at);
  const parts = sorted.map((place) => {
    const lines: string[] = [];
    let table: number | undefined;
    for (let i = place.at; i < place.at + place.size; i++) {
      const sentence = source.sentences[i]!;
      if (sentence.header !== undefined && sentence.header !== table) {
        lines.push(`[table] ${source.sentences[sentence.header]!.text}`);
        table = sentence.header;
      }
      if (sentence.header !== i) lines.push(sentence.text);
    }
    return lines.join(table === undefined ? ' ' : '\n');
  });
  return parts.length === 1 ? parts[0]! : parts.map((text, k) => `(excerpt ${k + 1}) ${text}`).join('\n');
}

/** Sent with a source whose words never meet the claim's: its opening, in case the two are in different languages. */
const OPENING_CHARS = 1500;

/** What the judge reads of a source for a claim, and whether it is a place found for the claim. */
export interface JudgeInput {
  passage: string;
  located: boolean;
}

/** The judge's reading of `source` for a claim, from the evidence found there. */
export function judgePassage(evidence: Evidence, source: SourceSentences | undefined): JudgeInput {
  if (evidence.passage !== null) return { passage: evidence.passage, located: true };
  // Nothing of the claim is in the source: the judge is told so, not shown an unrelated passage as if it were the place.
  const opening = evidence.sameScript ? '' : (source?.text.slice(0, OPENING_CHARS) ?? '');
  return {
    passage: opening
      ? `(No passage shares a word or figure with the claim; the source is in another language. It opens:)\n${opening}`
      : '(No passage of this source shares a word or figure with the claim.)',
    located: false,
  };
}

/** What the judge reads of a whole source for a claim (the check's own path, for the benches). */
export function judgeInput(claim: string, source: SourceSentences): JudgeInput {
  const evidence = bestEvidence(claim, source);
  return evidence ? judgePassage(evidence, source) : { passage: '', located: false };
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
