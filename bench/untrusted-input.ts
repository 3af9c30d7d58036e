// Untrusted input: per document kind, growing inputs read through the document reader with the limits a new
// install has (FILE_MAX_MB 20, READ_MAX_UNPACKED_MB 8, READ_MAX_CHARS 1M, READ_MAX_SECONDS 30,
// READ_MAX_MEMORY_MB 384): the outcome, the time, how far the process's RSS (reading threads included) rose
// above what it was just before the read, and the longest event-loop stall while it was read (what Slack's
// acks and /healthz would wait). Each input is read in a process of its own, so one input's memory is not
// counted against the next: once after a read of its kind's smallest input (its libraries loaded: the input's
// own cost), once as the first document of its kind the process reads (loading the libraries included).
//   npm run bench:untrusted
import { execFileSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { READ_DEFAULTS } from '../src/ports/document-reading.js';
import { DocumentReader } from '../src/search/read/document-reader.js';
import { makeDocx } from '../test/helpers/make-docx.js';
import { makePdf } from '../test/helpers/make-pdf.js';
import { fmt, report } from './lib/stats.js';

const line = (i: number) =>
  `Line ${i}: the heat pump's seasonal performance factor was measured at 3.4 in winter.`;
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i));
const listing = (rows: number) =>
  `<html><head><title>Listing</title></head><body><main>${Array.from(
    { length: rows },
    (_, i) =>
      `<div class="row"><p>Item ${i}: <a href="/x/${i}">model ${i}</a> costs ${i} pounds.</p><table><tr><td>${i}</td></tr></table></div>`,
  ).join('\n')}</main></body></html>`;
const article = (paragraphs: number) =>
  `<html><head><title>Article</title></head><body><nav>Menu</nav><article><h1>Report</h1>${lines(paragraphs)
    .map((l) => `<p>${l}</p>`)
    .join('')}</article><footer>Footer</footer></body></html>`;

const CASES: { kind: string; name: string; make: () => Buffer }[] = [
  ...[200, 2_000, 20_000, 60_000].map((n) => ({
    kind: 'html article',
    name: 'a.html',
    make: () => Buffer.from(article(n)),
  })),
  ...[2_000, 20_000, 50_000].map((n) => ({
    kind: 'html listing',
    name: 'l.html',
    make: () => Buffer.from(listing(n)),
  })),
  ...[50, 500, 3_000].map((p) => ({
    kind: 'pdf',
    name: 'r.pdf',
    make: () =>
      makePdf(
        Array.from({ length: p }, () => lines(45)),
        { title: 'R', author: 'A', created: '20260101' },
      ),
  })),
  ...[1_000, 30_000, 60_000].map((n) => ({
    kind: 'docx',
    name: 'w.docx',
    make: () => makeDocx(lines(n), { deflate: true }),
  })),
  {
    kind: 'docx (bomb)',
    name: 'b.docx',
    make: () => makeDocx(Array(400_000).fill(line(0)), { deflate: true }),
  },
  {
    kind: 'docx (lying zip)',
    name: 'z.docx',
    make: () => makeDocx(Array(400_000).fill(line(0)), { deflate: true, lie: true }),
  },
  ...[10_000, 150_000].map((n) => ({
    kind: 'csv',
    name: 't.csv',
    make: () =>
      Buffer.from(
        lines(n)
          .map((l, i) => `${i},"${l}"`)
          .join('\n'),
      ),
  })),
  ...[10_000, 150_000].map((n) => ({
    kind: 'markdown',
    name: 'm.md',
    make: () => Buffer.from(`# Notes\n\n${lines(n).join('\n\n')}`),
  })),
];

const only = process.argv.indexOf('--case');
if (only >= 0) {
  // One input, in this process: what it prints is one JSON line for the parent.
  const c = CASES[Number(process.argv[only + 1])]!;
  const reader = new DocumentReader(READ_DEFAULTS);
  // The reading threads started and warm, their libraries loaded (a first read of this kind's smallest input),
  // as in a process that has read such a document before: what rises is this input's own cost.
  // With --cold, this is the first document of its kind the process reads (a markdown one before it).
  const first = process.argv.includes('--cold')
    ? { name: 'warm.md', make: () => Buffer.from('# Warm\n\nThe reading threads started.') }
    : CASES.find((k) => k.kind === c.kind)!;
  await reader.readFile(first.name, first.make());
  const bytes = c.make();
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const outcome = await reader.readFile(c.name, bytes);
  const ms = performance.now() - started;
  delay.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const said = outcome.ok
    ? `read ${outcome.doc.text.length.toLocaleString('en')} chars${outcome.note ? ' (cut)' : ''}`
    : `refused: ${outcome.reason}`;
  await reader.close();
  console.log(
    JSON.stringify({
      ok: outcome.ok,
      said,
      ms,
      mb: bytes.length / 1_048_576,
      riseMb: (peak - before) / 1_048_576,
      stallMs: delay.max / 1e6,
    }),
  );
  process.exit(0);
}

const figures: Record<
  string,
  { largestMb: number; peakRiseMb: number; firstReadRiseMb: number; stallMs: number }
> = {};
console.log(
  'kind               input     outcome                                              time  RSS rise  first read  stall',
);
for (let i = 0; i < CASES.length; i++) {
  const c = CASES[i]!;
  const measure = (...flags: string[]) => {
    const args = [...process.execArgv, import.meta.filename, '--case', String(i), ...flags];
    const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(out.trim().split('\n').at(-1)!) as {
      ok: boolean;
      said: string;
      ms: number;
      mb: number;
      riseMb: number;
      stallMs: number;
    };
  };
  const r = measure();
  const cold = measure('--cold');
  console.log(
    `${c.kind.padEnd(18)} ${`${fmt(r.mb, 2)} MB`.padStart(9)}  ${r.said.slice(0, 52).padEnd(52)} ${`${fmt(r.ms / 1000)} s`.padStart(7)} ${`+${fmt(r.riseMb, 0)} MB`.padStart(9)} ${`+${fmt(cold.riseMb, 0)} MB`.padStart(10)} ${`${fmt(Math.max(r.stallMs, cold.stallMs), 0)} ms`.padStart(6)}`,
  );
  figures[c.kind] ??= { largestMb: 0, peakRiseMb: 0, firstReadRiseMb: 0, stallMs: 0 };
  const kind = figures[c.kind]!;
  if (r.ok) kind.largestMb = Math.max(kind.largestMb, r.mb);
  kind.peakRiseMb = Math.max(kind.peakRiseMb, r.riseMb);
  kind.firstReadRiseMb = Math.max(kind.firstReadRiseMb, cold.riseMb);
  kind.stallMs = Math.max(kind.stallMs, r.stallMs);
}
report('untrusted-input', figures);
