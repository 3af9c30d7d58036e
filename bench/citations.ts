// The claim check on a corpus of real pages: reports whose citations are all correct, and reports with
// planted errors (a citation swapped to another page the session read; a sentence whose fact is on no
// page; a citation to a page that states a different number). Reported: planted errors caught, correct
// citations wrongly moved or removed, time and model calls per 100 citations, for lexical evidence
// alone and for the judge (a scripted judge that answers as a careful reader would: exactly, and with
// one verdict in ten flipped). The source store is the real one, on embedded PGlite.
//   npm run bench:citations
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MIGRATIONS_DIR } from '../src/compose.js';
import { citationSpans } from '../src/engine/citations/citation-spans.js';
import { claimUnits } from '../src/engine/citations/claim-units.js';
import { checkCitations } from '../src/engine/phases/check-citations.js';
import { countTokens } from '../src/llm/count-tokens.js';
import type { Llm, LlmRequest } from '../src/ports/llm.js';
import { extractHtml } from '../src/search/read/extract-html.js';
import { openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { SourceTextStore } from '../src/store/source-text-store.js';
import { judged } from '../test/fakes/rule-llm.js';
import { CORPUS } from './citations-corpus.js';
import { checkSession } from './lib/check-session.js';
import { fmt, report } from './lib/stats.js';

const REPORTS = 4;

interface Planted {
  text: string;
  /** The page (1-based, as the session numbers them) the report cites for it. */
  cited: number;
  /** The page that says it, or null when no page does. */
  truth: number | null;
  kind: 'correct' | 'swapped' | 'invented' | 'wrong_number';
}

const pages = CORPUS.map((page, i) => {
  const html = gunzipSync(readFileSync(`test/fixtures/pages/corpus/${page.file}.html.gz`)).toString('utf8');
  const { title, text } = extractHtml(html);
  return { n: i + 1, url: `https://pages.example/${page.file}`, title, text };
});

/** Deterministic shuffling, so every run checks the same reports. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** Every claim, correctly cited; and again with errors planted in about four claims of ten. */
function claimSets(): { clean: Planted[]; planted: Planted[] } {
  const random = seeded(7);
  const clean: Planted[] = [];
  const planted: Planted[] = [];
  CORPUS.forEach((page, p) => {
    const n = p + 1;
    for (const claim of page.claims) {
      clean.push({ text: claim.text, cited: n, truth: n, kind: 'correct' });
      const roll = random();
      if (claim.wrong && roll < 0.5)
        planted.push({ text: claim.wrong, cited: n, truth: null, kind: 'wrong_number' });
      else if (roll < 0.75) {
        const other = 1 + ((p + 1 + Math.floor(random() * (CORPUS.length - 1))) % CORPUS.length);
        planted.push({ text: claim.text, cited: other, truth: n, kind: 'swapped' });
      } else planted.push({ text: claim.text, cited: n, truth: n, kind: 'correct' });
    }
    for (const text of page.invented) planted.push({ text, cited: n, truth: null, kind: 'invented' });
  });
  return { clean, planted };
}

/** A judge that reads as a careful reader would: a claim is supported only by the page that says it; `flip` of its verdicts are wrong. */
function scriptedJudge(claims: Planted[], flip: number): Llm & { calls: number } {
  const random = seeded(11);
  const truth = (claim: string, n: number) => {
    const c = claims.find((x) => plain(x.text) === claim);
    return c !== undefined && c.kind !== 'invented' && c.kind !== 'wrong_number' && c.truth === n;
  };
  return {
    calls: 0,
    async complete(request: LlmRequest) {
      this.calls += 1;
      const verdicts = judged(request, (claim, n) => {
        const right = truth(claim, n);
        return right !== random() < flip ? 'supported' : 'unsupported';
      });
      const text = JSON.stringify({ verdicts });
      return {
        text,
        toolCalls: [],
        usage: {
          inputTokens: countTokens(request.messages.map((m) => m.content).join('')),
          outputTokens: countTokens(text),
        },
        finishReason: 'stop',
      };
    },
  };
}

const plain = (text: string) => claimUnits(`${text} [1]`)[0]!.text;

async function run(
  store: SourceTextStore,
  pool: import('pg').Pool,
  claims: Planted[],
  mode: 'lexical' | 'model',
  flip = 0,
) {
  const llm = scriptedJudge(claims, flip);
  const random = seeded(3);
  const order = [...claims].sort(() => random() - 0.5);
  const outcome = {
    citations: 0,
    caughtBy: { swapped: 0, invented: 0, wrong_number: 0 },
    planted: { swapped: 0, invented: 0, wrong_number: 0 },
    movedRight: 0,
    correct: 0,
    wronglyChanged: 0,
    ms: 0,
  };
  for (let r = 0; r < REPORTS; r++) {
    const mine = order.filter((_, i) => i % REPORTS === r);
    const ctx = await checkSession(store, pool, llm, { mode, tokens: 60_000 }, pages);
    const markdown = mine.map((c) => `- ${c.text.replace(/\.$/, '')} [${c.cited}].`).join('\n');
    const started = performance.now();
    const checked = await checkCitations(ctx, markdown);
    outcome.ms += performance.now() - started;
    if (checked === 'cancelled') throw new Error('cancelled');
    const items = checked.markdown.split('\n');
    mine.forEach((claim, i) => {
      const now = citationSpans(items[i]!).flatMap((s) => s.numbers);
      outcome.citations += 1;
      if (claim.kind === 'correct') {
        outcome.correct += 1;
        if (!now.includes(claim.cited)) {
          outcome.wronglyChanged += 1;
          if (process.env.BENCH_DEBUG) console.log('CHANGED', mode, claim.cited, items[i]);
        }
        return;
      }
      outcome.planted[claim.kind] += 1;
      if (!now.includes(claim.cited)) outcome.caughtBy[claim.kind] += 1;
      else if (process.env.BENCH_DEBUG) console.log('MISSED', mode, claim.kind, claim.cited, items[i]);
      if (claim.kind === 'swapped' && claim.truth !== null && now.includes(claim.truth))
        outcome.movedRight += 1;
    });
  }
  return { ...outcome, calls: llm.calls };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-citations-'));
const db = await openDatabase({ dataDir: dir });
const figures: Record<string, number> = {};
try {
  await migrate(db.pool, MIGRATIONS_DIR);
  const store = new SourceTextStore(db.pool);
  const { clean, planted } = claimSets();
  for (const [name, mode, flip] of [
    ['lexical evidence alone', 'lexical', 0],
    ['scripted judge', 'model', 0],
    ['scripted judge, 1 verdict in 10 wrong', 'model', 0.1],
  ] as const) {
    const a = await run(store, db.pool, clean, mode, flip);
    const b = await run(store, db.pool, planted, mode, flip);
    const plantedTotal = b.planted.swapped + b.planted.invented + b.planted.wrong_number;
    const caught = b.caughtBy.swapped + b.caughtBy.invented + b.caughtBy.wrong_number;
    const correct = a.correct + b.correct;
    const wrong = a.wronglyChanged + b.wronglyChanged;
    const citations = a.citations + b.citations;
    const per100 = (x: number) => (x / citations) * 100;
    console.log(`\n${name} (${citations} citations: ${correct} correct, ${plantedTotal} planted errors)`);
    console.log(
      `  planted errors caught            ${caught} of ${plantedTotal} (${fmt((caught / plantedTotal) * 100)} %; goal ≥ 95 %)`,
    );
    for (const kind of ['swapped', 'invented', 'wrong_number'] as const)
      console.log(`    ${kind.padEnd(30)} ${b.caughtBy[kind]} of ${b.planted[kind]}`);
    console.log(`  swapped ones moved to the right page  ${b.movedRight} of ${b.planted.swapped}`);
    console.log(
      `  correct citations moved/removed  ${wrong} of ${correct} (${fmt((wrong / correct) * 100)} %; goal ≤ 2 %)`,
    );
    console.log(
      `  per 100 citations                ${fmt(per100(a.ms + b.ms))} ms, ${fmt(per100(a.calls + b.calls), 2)} model calls`,
    );
    Object.assign(figures, {
      [`${name}.caughtPct`]: (caught / plantedTotal) * 100,
      [`${name}.wronglyChangedPct`]: (wrong / correct) * 100,
      [`${name}.msPer100`]: per100(a.ms + b.ms),
      [`${name}.callsPer100`]: per100(a.calls + b.calls),
    });
  }
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
report('citations', figures);
