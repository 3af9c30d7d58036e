import type { CitationCheck } from '../../ports/report.js';
import { citationFigures } from '../../ports/report-markdown.js';
import {
  bestEvidence,
  type Evidence,
  judgePassage,
  lexicalVerdict,
  readClaim,
} from '../citations/claim-evidence.js';
import { judgeClaims, pairsWithin, type Verdict } from '../citations/claim-judge.js';
import { type ClaimUnit, claimUnits } from '../citations/claim-units.js';
import { locateAcrossLanguages } from '../citations/cross-language-terms.js';
import { keptTexts } from '../citations/kept-texts.js';
import { findQuote, quoteAround } from '../citations/source-quote.js';
import { readSource, type SourceSentences, tableRowText } from '../citations/source-sentences.js';
import { interruption, type SessionContext } from '../session-context.js';
import { lineage } from '../sources/keep-source.js';
import { errorText } from '../tools/tool-result.js';

export interface CheckedReport {
  markdown: string;
  check: CitationCheck;
  /** By session source number: what the source says for the sentences citing it. */
  quotes: Map<number, string[]>;
}

/** One claim and one source: cited by the report, or found where the claim's support may be. */
interface Pair {
  unit: number;
  n: number;
  evidence: Evidence | null;
  verdict: Verdict | 'unchecked';
  quote?: string;
}

const MARK = '⚠ _unverified_';
const QUOTES_PER_SOURCE = 3;
/** Passages looked at for a claim its cited sources may not support, and the least evidence worth a judge's look. */
const ALTERNATIVE_PASSAGES = 8;
const ALTERNATIVE_SCORE = 0.45;

/**
 * The claim check: each cited sentence against what its sources say (their
 * kept text, or the search snippet an agent saw). Lexical evidence settles
 * the clear cases; one batched model call judges the rest. A citation its
 * source does not support moves to one that does (another of the sentence's
 * sources, or any source research read), else it is removed and a sentence
 * left with no support is marked ⚠ unverified. Bounded by its own time and
 * token budget; a check that fails leaves the report as written, saying so.
 */
export async function checkCitations(
  ctx: SessionContext,
  markdown: string,
): Promise<CheckedReport | 'cancelled'> {
  const { mode, timeMs, tokens } = ctx.settings.citationCheck;
  const until = ctx.deps.clock.now() + timeMs;
  const units = claimUnits(markdown);
  const cited = units.map((u) =>
    [...new Set(u.cites.flatMap((c) => c.numbers))].filter((n) => ctx.sources.get(n)),
  );
  const citations = cited.reduce((sum, ns) => sum + ns.length, 0);
  const figures: CitationCheck = { citations, checked: 0, moved: 0, removed: 0, unverified: 0 };
  const unchanged = (note: string): CheckedReport => ({
    markdown,
    check: { ...figures, note },
    quotes: new Map(),
  });
  if (mode === 'off') return unchanged('the check is off');
  if (citations === 0) return { markdown, check: figures, quotes: new Map() };
  ctx.deps.emit({ type: 'checking', text: `Checking ${citations} citations against their sources` });

  const answerOnly = new Set<number>();
  const texts = await keptTexts(ctx, [...new Set(cited.flat())], answerOnly);
  const pairs: Pair[] = units.flatMap((u, unit) =>
    cited[unit]!.map((n): Pair => {
      const text = texts.get(n);
      const evidence = text ? bestEvidence(u.text, text) : null;
      return {
        unit,
        n,
        evidence,
        verdict: evidence && lexicalVerdict(evidence) === 'supported' ? 'supported' : 'unchecked',
      };
    }),
  );
  if (mode === 'model') {
    const located = await locateAcrossLanguages(
      ctx,
      pairs.map((p) => ({ claim: units[p.unit]!.text, source: texts.get(p.n), evidence: p.evidence })),
      until,
    );
    pairs.forEach((p, i) => {
      p.evidence = located[i]!;
    });
  }
  const doubtful = new Set(
    pairs.filter((p) => p.verdict !== 'supported' && texts.get(p.n)).map((p) => p.unit),
  );
  const alternatives = await findAlternatives(ctx, units, cited, [...doubtful]);
  const notes: string[] = [];

  if (mode === 'lexical') {
    // Alone, lexical evidence decides only clear-cut pairs: the words are there, or the source is about something else.
    for (const p of pairs) {
      if (p.verdict === 'unchecked' && p.evidence && lexicalVerdict(p.evidence) === 'unsupported')
        p.verdict = 'unsupported';
    }
  } else {
    const asked = [...pairs, ...alternatives].filter((p) => p.verdict === 'unchecked' && p.evidence);
    const fitting = pairsWithin(
      ctx,
      asked.map((p) => judgePair(ctx, units, texts, p)),
      tokens,
    );
    if (fitting.length < asked.length) notes.push("the check's token budget ran out");
    if (fitting.length > 0) {
      if (ctx.deps.clock.now() >= until) return unchanged("the check's time budget ran out");
      try {
        const answers = await judgeClaims(ctx, fitting, until);
        answers.forEach((answer, i) => {
          if (!answer) return;
          const pair = asked[i]!;
          pair.verdict = answer.verdict;
          const source = texts.get(pair.n) ?? readSource(pair.evidence!.passage ?? '');
          if (answer.verdict !== 'unsupported') pair.quote = sourceQuote(answer.quote, source);
        });
      } catch (error) {
        if (interruption(ctx, until) === 'cancelled') return 'cancelled';
        const why =
          interruption(ctx, until) === 'deadline' ? "the check's time budget ran out" : 'the check failed';
        ctx.log.warn({ err: error }, `citation check: ${why}: ${errorText(error)}`);
        return unchanged(why);
      }
    }
  }
  const checked = apply(markdown, units, pairs, bestAlternatives(alternatives), figures, notes);
  const onAnswer = pairs.filter((p) => p.verdict !== 'unchecked' && answerOnly.has(p.n)).length;
  if (onAnswer) checked.check.answerOnly = onAnswer;
  // A quote is the page's words: none is shown from a hosted answer standing in for its page.
  for (const n of answerOnly) checked.quotes.delete(n);
  ctx.deps.emit({ type: 'checking', text: `Citations: ${citationFigures(checked.check).join(' · ')}` });
  return checked;
}

/** For claims a cited source may not support: the best other source research saw, by its kept passages. */
async function findAlternatives(
  ctx: SessionContext,
  units: ClaimUnit[],
  cited: number[][],
  doubtful: number[],
): Promise<Pair[]> {
  const store = ctx.deps.sourceTexts;
  if (!store) return [];
  const found: Pair[] = [];
  for (const unit of doubtful) {
    let passages: { key: string; body: string }[];
    try {
      passages = await store.passages(lineage(ctx), units[unit]!.text, ALTERNATIVE_PASSAGES);
    } catch (err) {
      ctx.log.warn({ err }, 'citation check: the kept sources could not be searched; no citation is moved');
      return found;
    }
    let best: Pair | null = null;
    for (const { key, body } of passages) {
      const n = ctx.sources.byKey(key)?.n;
      if (n === undefined || cited[unit]!.includes(n)) continue;
      const evidence = bestEvidence(units[unit]!.text, readSource(body));
      if (evidence && evidence.reach >= ALTERNATIVE_SCORE && (!best || evidence.reach > best.evidence!.reach))
        best = {
          unit,
          n,
          evidence,
          verdict: lexicalVerdict(evidence) === 'supported' ? 'supported' : 'unchecked',
        };
    }
    if (best) found.push(best);
  }
  return found;
}

function judgePair(ctx: SessionContext, units: ClaimUnit[], texts: Map<number, SourceSentences>, p: Pair) {
  const { passage } = judgePassage(p.evidence!, texts.get(p.n));
  return { claim: units[p.unit]!.text, n: p.n, title: ctx.sources.get(p.n)!.title, passage };
}

function bestAlternatives(alternatives: Pair[]): Map<number, Pair> {
  const best = new Map<number, Pair>();
  for (const p of alternatives) if (p.verdict === 'supported' || p.verdict === 'partly') best.set(p.unit, p);
  return best;
}

/**
 * The judge's quote, found in the source however the model copied it, shown
 * as the source says it: the whole sentences it is in (bounded); a table row
 * under its header, marked as a table; never a title alone; undefined when
 * the source does not say it.
 */
function sourceQuote(quote: string, source: SourceSentences): string | undefined {
  const span = findQuote(source.text, quote);
  if (!span) return undefined;
  const at = source.sentences.flatMap((s, i) => (s.end > span.start && s.start < span.end ? [i] : []));
  const sentences = at.map((i) => source.sentences[i]!);
  // A row under its header; the header alone says nothing.
  if (sentences.length === 1 && sentences[0]!.header !== undefined)
    return sentences[0]!.header === at[0] ? undefined : tableRowText(source, at[0]!);
  if (sentences.length === 0 || !sentences.every((s) => s.prose)) return undefined;
  return quoteAround(source.text, sentences[0]!.start, sentences.at(-1)!.end, readClaim(quote));
}

function apply(
  markdown: string,
  units: ClaimUnit[],
  pairs: Pair[],
  alternatives: Map<number, Pair>,
  figures: CitationCheck,
  notes: string[],
): CheckedReport {
  const quotes = new Map<number, string[]>();
  const quote = (p: Pair) => {
    // A sentence lexical evidence found is shown only when it carries every figure, the same way round.
    const found = p.evidence?.figuresFound && p.evidence.sameWayRound ? p.evidence.quote : undefined;
    const text = p.quote ?? found;
    if (!text) return;
    const list = quotes.get(p.n) ?? [];
    if (!list.includes(text) && list.length < QUOTES_PER_SOURCE) quotes.set(p.n, [...list, text]);
  };
  const edits: [number, number, string][] = [];
  const check = { ...figures };
  units.forEach((unit, u) => {
    const mine = pairs.filter((p) => p.unit === u);
    const good = mine.filter((p) => p.verdict === 'supported' || p.verdict === 'partly');
    const bad = new Set(mine.filter((p) => p.verdict === 'unsupported').map((p) => p.n));
    check.checked += mine.filter((p) => p.verdict !== 'unchecked').length;
    good.forEach(quote);
    if (bad.size === 0) return;
    const instead = good.length === 0 ? alternatives.get(u) : undefined;
    if (good.length > 0 || instead) check.moved += bad.size;
    else check.removed += bad.size;
    const unverified = good.length === 0 && !instead && mine.every((p) => p.verdict === 'unsupported');
    if (unverified) check.unverified += 1;
    if (instead) quote(instead);
    let replaced = false;
    let marked = false;
    for (const cite of unit.cites) {
      const numbers = cite.numbers.flatMap((n) => {
        if (!bad.has(n)) return [n];
        if (!instead || replaced) return [];
        replaced = true;
        return [instead.n];
      });
      if (numbers.length === cite.numbers.length && numbers.every((n, i) => n === cite.numbers[i])) continue;
      if (numbers.length > 0) edits.push([cite.start, cite.end, `[${[...new Set(numbers)].join(', ')}]`]);
      else if (unverified && !marked) {
        marked = true;
        edits.push([cite.start, cite.end, MARK]);
      } else {
        const spaced =
          markdown[cite.start - 1] === ' ' && /^($|[\s.,;:!?)])/.test(markdown.slice(cite.end, cite.end + 1));
        edits.push([spaced ? cite.start - 1 : cite.start, cite.end, '']);
      }
    }
  });
  let out = markdown;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + text + out.slice(end);
  const unchecked = check.citations - check.checked;
  if (unchecked > 0 && notes.length) check.note = notes.join('; ');
  return { markdown: out, check, quotes };
}
