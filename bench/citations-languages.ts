// The claim check on real statements in four languages (bench/citations-languages-corpus.ts): public
// facts as pages present them, statements as reports write them (paraphrased, rounded, some in another
// language than the page), with planted negations, changed figures and swapped sources. Per language of
// the statement: pairs lexical evidence settles (and errors among them: must be 0), correct citations
// lexical mode alone would remove (must be 0), how often the passage the judge reads holds the
// statement's figures, judge tokens per 100 citations, and whether every quote shown under a source is
// whole sentences the page contains. Then (issue 52) the evidence the judge reads, on the harder corpus
// (bench/citations-evidence-corpus.ts: statements citing pages in another language, figures in tables,
// statements of several facts) with the first: per pairing of languages and per trait, the share of
// correct pairs whose judge input holds every figure of theirs the page holds, the share of
// cross-language pairs given a located passage, errors settled by words (must be 0) and judge tokens per
// 100 citations. The judge is scripted (it answers by the corpus's truth); the source store is the real
// one, on embedded PGlite.
//   npm run bench:citations-languages
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../src/compose.js';
import { bestEvidence, judgeInput, lexicalVerdict } from '../src/engine/citations/claim-evidence.js';
import { claimUnits } from '../src/engine/citations/claim-units.js';
import { findQuote } from '../src/engine/citations/source-quote.js';
import { readSource } from '../src/engine/citations/source-sentences.js';
import { figuresOf } from '../src/engine/citations/text-terms.js';
import { checkCitations } from '../src/engine/phases/check-citations.js';
import { countTokens } from '../src/llm/count-tokens.js';
import type { Llm, LlmRequest } from '../src/ports/llm.js';
import { openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { SourceTextStore } from '../src/store/source-text-store.js';
import { type EvidenceStatement, STATEMENTS as HARDER, PAGES } from './citations-evidence-corpus.js';
import { type Language, type RealStatement, STATEMENTS } from './citations-languages-corpus.js';
import { checkSession } from './lib/check-session.js';
import { fmt, report } from './lib/stats.js';

const pages = PAGES.map((p, i) => ({ ...p, n: i + 1, url: `https://pages.example/${p.id}` }));
const pageOf = (id: string) => pages.find((p) => p.id === id)!;
const plain = (text: string) => claimUnits(`${text} [1]`)[0]!.text;
const hasFigures = (text: string, statement: string) => {
  const there = new Set(figuresOf(text, true));
  return figuresOf(statement).every((f) => there.has(f));
};

/** What lexical evidence alone decides for each pair (the same functions the check uses). */
function lexical(statements: RealStatement[]) {
  const out = {
    settled: 0,
    correctSettled: 0,
    errorsSettled: 0,
    removedCorrect: 0,
    withFigures: 0,
    hits: 0,
    errors: [] as string[],
  };
  for (const st of statements) {
    const page = pageOf(st.cited);
    const evidence = bestEvidence(plain(st.text), readSource(page.text));
    const verdict = evidence ? lexicalVerdict(evidence) : 'uncertain';
    if (verdict === 'supported') {
      out.settled += 1;
      if (st.kind === 'correct') out.correctSettled += 1;
      else {
        out.errorsSettled += 1;
        out.errors.push(`${st.kind}: ${st.text}`);
      }
    }
    // The passage the judge would read (see judgePair): the place found, or a page in another script's opening.
    if (st.kind === 'correct' && figuresOf(st.text).length && evidence) {
      out.withFigures += 1;
      const shown = evidence.passage ?? (evidence.sameScript ? '' : page.text.slice(0, 1500));
      if (hasFigures(shown, st.text)) out.hits += 1;
      else out.errors.push(`passage lacks figures: ${st.text}`);
    }
    if (verdict === 'unsupported' && st.kind === 'correct') {
      out.removedCorrect += 1;
      out.errors.push(`correct removed: ${st.text}`);
    }
  }
  return out;
}

/** A judge answering by the corpus, recording the passage it was shown for each pair. */
function recordingJudge(statements: RealStatement[]) {
  const shown = new Map<string, string>();
  let inputTokens = 0;
  let termTokens = 0;
  const llm: Llm = {
    async complete(request: LlmRequest) {
      const user = request.messages.at(-1)!.content;
      // The claims' key terms in their pages' languages: what a model gives, from the corpus.
      if (request.purpose === 'citation_terms') {
        const claims = [...user.matchAll(/Claim (\d+): (.*)/g)].map((m) => ({
          claim: Number(m[1]),
          terms:
            (statements.find((s) => plain(s.text) === m[2]) as EvidenceStatement | undefined)?.terms ?? [],
        }));
        const text = JSON.stringify({ claims });
        termTokens += countTokens(request.messages.map((m) => m.content).join('\n')) + countTokens(text);
        return { text, toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop' };
      }
      inputTokens += countTokens(request.messages.map((m) => m.content).join('\n'));
      const verdicts = [
        ...user.matchAll(/Pair (\d+)\nClaim: (.*)\nSource \[(\d+)\] [^\n]*:\n"""([\s\S]*?)"""/g),
      ].map((m) => {
        const [, pair, claim, n, passage] = m;
        const st = statements.find((s) => plain(s.text) === claim && pageOf(s.cited).n === Number(n));
        shown.set(`${claim}|${n}`, passage!);
        const right = st?.kind === 'correct';
        return {
          pair: Number(pair),
          verdict: right ? 'supported' : 'unsupported',
          quote: right ? st!.quote! : '',
        };
      });
      const text = JSON.stringify({ verdicts });
      return {
        text,
        toolCalls: [],
        usage: { inputTokens: countTokens(user), outputTokens: countTokens(text) },
        finishReason: 'stop',
      };
    },
  };
  return { llm, shown, tokens: () => inputTokens, termTokens: () => termTokens };
}

/** The claim's figures the page states anywhere: what the judge must be shown. */
function pageFigures(statement: string, pageText: string): string[] {
  const there = new Set(figuresOf(pageText, true));
  return figuresOf(plain(statement)).filter((f) => there.has(f));
}

/** Per group of pairs: judge inputs that hold every figure the page holds for them, located cross-language passages. */
async function evidence(store: SourceTextStore, pool: import('pg').Pool, statements: EvidenceStatement[]) {
  const judge = recordingJudge(statements);
  const ctx = await checkSession(store, pool, judge.llm, { mode: 'model', tokens: 1_000_000 }, pages);
  const markdown = statements.map((s) => `- ${s.text} [${pageOf(s.cited).n}]`).join('\n');
  const checked = await checkCitations(ctx, markdown);
  if (checked === 'cancelled') throw new Error('cancelled');
  const out = {
    correct: 0,
    held: 0,
    cross: 0,
    located: 0,
    crossWords: 0,
    locatedWords: 0,
    wordsWithoutCall: 0,
    errorsSettled: 0,
    misses: [] as string[],
  };
  for (const st of statements) {
    const page = pageOf(st.cited);
    const claim = plain(st.text);
    const settled = lexicalVerdict(bestEvidence(claim, readSource(page.text))!) === 'supported';
    if (st.kind !== 'correct') {
      if (settled) {
        out.errorsSettled += 1;
        out.misses.push(`error settled by words: ${st.text}`);
      }
      continue;
    }
    // What the judge read (or, for a pair words settled, the place they settled it on).
    const input = judge.shown.get(`${claim}|${page.n}`) ?? judgeInput(claim, readSource(page.text)).passage;
    const wanted = pageFigures(st.text, page.text);
    out.correct += 1;
    const shown = new Set(figuresOf(input, true));
    if (wanted.every((f) => shown.has(f))) out.held += 1;
    else out.misses.push(`judge input lacks ${wanted.filter((f) => !shown.has(f)).join(', ')}: ${st.text}`);
    if (st.lang !== page.lang) {
      const key = wanted.length > 0 ? 'cross' : 'crossWords';
      const hit = key === 'cross' ? 'located' : 'locatedWords';
      out[key] += 1;
      if (!input.startsWith('(No passage')) out[hit] += 1;
      else out.misses.push(`no place located: ${st.text}`);
      // Without the terms call: the claim's own words and figures only.
      if (key === 'crossWords' && judgeInput(claim, readSource(page.text)).located) out.wordsWithoutCall += 1;
    }
  }
  return { ...out, tokens: judge.tokens(), termTokens: judge.termTokens(), pairs: statements.length };
}

async function judged(store: SourceTextStore, pool: import('pg').Pool, statements: RealStatement[]) {
  const judge = recordingJudge(statements);
  const ctx = await checkSession(store, pool, judge.llm, { mode: 'model', tokens: 200_000 }, pages);
  const markdown = statements.map((s) => `- ${s.text} [${pageOf(s.cited).n}]`).join('\n');
  const started = performance.now();
  const checked = await checkCitations(ctx, markdown);
  const ms = performance.now() - started;
  if (checked === 'cancelled') throw new Error('cancelled');
  // The passage the judge read for each correct statement with figures it did not settle itself.
  let withFigures = 0;
  let hits = 0;
  const misses: string[] = [];
  for (const st of statements) {
    if (st.kind !== 'correct' || figuresOf(st.text).length === 0) continue;
    const passage = judge.shown.get(`${plain(st.text)}|${pageOf(st.cited).n}`);
    if (passage === undefined) continue;
    withFigures += 1;
    if (hasFigures(passage, st.text)) hits += 1;
    else misses.push(`${st.text} → ${passage.slice(0, 80)}`);
  }
  // Every quote shown under a source: the page's own words, whole sentences (or "…" where one was cut).
  let quotes = 0;
  let goodQuotes = 0;
  for (const [n, list] of checked.quotes) {
    const page = pages.find((p) => p.n === n)!;
    const source = readSource(page.text);
    for (const quote of list) {
      quotes += 1;
      const body = quote.replace(/^… /, '').replace(/ …$/, '');
      const span = findQuote(page.text, body);
      const starts = quote.startsWith('… ') || source.sentences.some((s) => s.start === span?.start);
      const ends = quote.endsWith(' …') || source.sentences.some((s) => s.end === span?.end);
      if (span && starts && ends) goodQuotes += 1;
      else misses.push(`quote not whole sentences of page ${n}: ${quote}`);
    }
  }
  return { withFigures, hits, tokens: judge.tokens(), quotes, goodQuotes, misses, ms, check: checked.check };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-citations-languages-'));
const db = await openDatabase({ dataDir: dir });
const figures: Record<string, number> = {};
try {
  await migrate(db.pool, MIGRATIONS_DIR);
  const store = new SourceTextStore(db.pool);
  console.log(`${STATEMENTS.length} statement–page pairs on ${PAGES.length} pages`);
  console.log(
    'lang  pairs  correct  planted  settled (correct / errors)  lexical mode removes  passage has figures (all / judged)  judge tokens /100  quotes whole sentences',
  );
  for (const lang of ['en', 'zh', 'ja', 'ru'] as Language[]) {
    const mine = STATEMENTS.filter((s) => s.lang === lang);
    const correct = mine.filter((s) => s.kind === 'correct').length;
    const lex = lexical(mine);
    const j = await judged(store, db.pool, mine);
    const hitPct = j.withFigures ? (j.hits / j.withFigures) * 100 : 100;
    const allPct = lex.withFigures ? (lex.hits / lex.withFigures) * 100 : 100;
    console.log(
      `${lang.padEnd(6)}${String(mine.length).padEnd(7)}${String(correct).padEnd(9)}${String(mine.length - correct).padEnd(9)}` +
        `${`${lex.correctSettled} / ${lex.errorsSettled}`.padEnd(28)}${String(lex.removedCorrect).padEnd(22)}` +
        `${`${lex.hits} of ${lex.withFigures} (${fmt(allPct, 0)} %) / ${j.hits} of ${j.withFigures}`.padEnd(36)}${fmt((j.tokens / mine.length) * 100, 0).padEnd(19)}` +
        `${j.goodQuotes} of ${j.quotes}`,
    );
    for (const line of [...lex.errors, ...j.misses]) console.log(`      ! ${line}`);
    Object.assign(figures, {
      [`${lang}.settledCorrect`]: lex.correctSettled,
      [`${lang}.errorsSettled`]: lex.errorsSettled,
      [`${lang}.lexicalRemovesCorrect`]: lex.removedCorrect,
      [`${lang}.passageHitPct`]: allPct,
      [`${lang}.judgedPassageHitPct`]: hitPct,
      [`${lang}.judgeTokensPer100`]: (j.tokens / mine.length) * 100,
      [`${lang}.quotesWhole`]: j.quotes ? j.goodQuotes / j.quotes : 1,
    });
  }
  console.log('\nevidence the judge reads (issue 52): both corpora, by pairing of languages and by trait');
  console.log(
    'group               pairs  correct  judge input holds the page figures  cross-language located (by figures / by words)  errors settled  judge tokens /100 (terms call)',
  );
  const all: EvidenceStatement[] = [...STATEMENTS.map((st) => ({ ...st, traits: [] })), ...HARDER];
  const groups = new Map<string, EvidenceStatement[]>();
  const add = (name: string, st: EvidenceStatement) => groups.set(name, [...(groups.get(name) ?? []), st]);
  for (const st of all) {
    add(`${st.lang} → ${pageOf(st.cited).lang}`, st);
    for (const trait of st.traits) add(trait, st);
  }
  groups.set('all', all);
  for (const [name, mine] of groups) {
    const e = await evidence(store, db.pool, mine);
    const heldPct = e.correct ? (e.held / e.correct) * 100 : 100;
    const locatedPct = e.cross ? (e.located / e.cross) * 100 : 100;
    console.log(
      `${name.padEnd(20)}${String(e.pairs).padEnd(7)}${String(e.correct).padEnd(9)}` +
        `${`${e.held} of ${e.correct} (${fmt(heldPct, 0)} %)`.padEnd(36)}` +
        `${e.cross ? `${e.located} of ${e.cross} (${fmt(locatedPct, 0)} %)` : '—'} / ${e.crossWords ? `${e.locatedWords} of ${e.crossWords} (${e.wordsWithoutCall} without)` : '—'}`.padEnd(
          48,
        ) +
        `${String(e.errorsSettled).padEnd(16)}${fmt((e.tokens / e.pairs) * 100, 0)} (${fmt((e.termTokens / e.pairs) * 100, 0)})`,
    );
    if (name !== 'all') for (const line of e.misses) console.log(`      ! ${line}`);
    const key = name.replace(/ → /, 'To');
    Object.assign(figures, {
      [`evidence.${key}.heldPct`]: heldPct,
      [`evidence.${key}.locatedPct`]: locatedPct,
      [`evidence.${key}.errorsSettled`]: e.errorsSettled,
      [`evidence.${key}.judgeTokensPer100`]: (e.tokens / e.pairs) * 100,
      [`evidence.${key}.termTokensPer100`]: (e.termTokens / e.pairs) * 100,
      [`evidence.${key}.locatedByWords`]: e.crossWords ? e.locatedWords / e.crossWords : 1,
    });
  }
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
report('citations-languages', figures);
