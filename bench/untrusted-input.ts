// Untrusted input: per document kind, growing inputs read through the document reader with the limits a new
// install has (FILE_MAX_MB 20, READ_MAX_UNPACKED_MB 8, READ_MAX_CHARS 1M, READ_MAX_SECONDS 30,
// READ_MAX_MEMORY_MB 384): the outcome, the time, the process's peak RSS (reading threads included) and the
// longest event-loop stall while it was read (what Slack's acks and /healthz would wait).
//   npm run bench:untrusted
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
  ...[200, 2_000, 20_000].map((n) => ({
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

const reader = new DocumentReader(READ_DEFAULTS);
const delay = monitorEventLoopDelay({ resolution: 10 });
const figures: Record<string, { largestMb: number; peakRssMb: number; stallMs: number }> = {};
console.log(
  'kind               input     outcome                                              time    peak RSS  stall',
);
for (const c of CASES) {
  const bytes = c.make();
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  delay.reset();
  delay.enable();
  const started = performance.now();
  const outcome = await reader.readFile(c.name, bytes);
  const ms = performance.now() - started;
  delay.disable();
  clearInterval(sampler);
  const said = outcome.ok
    ? `read ${outcome.doc.text.length.toLocaleString('en')} chars${outcome.note ? ' (cut)' : ''}`
    : `refused: ${outcome.reason}`;
  const mb = bytes.length / 1_048_576;
  const stall = delay.max / 1e6;
  console.log(
    `${c.kind.padEnd(18)} ${`${fmt(mb, 2)} MB`.padStart(9)}  ${said.slice(0, 52).padEnd(52)} ${`${fmt(ms / 1000)} s`.padStart(7)} ${`${fmt(peak / 1_048_576, 0)} MB`.padStart(9)} ${`${fmt(stall, 0)} ms`.padStart(6)}`,
  );
  figures[c.kind] ??= { largestMb: 0, peakRssMb: 0, stallMs: 0 };
  const kind = figures[c.kind]!;
  if (outcome.ok) kind.largestMb = Math.max(kind.largestMb, mb);
  kind.peakRssMb = Math.max(kind.peakRssMb, peak / 1_048_576);
  kind.stallMs = Math.max(kind.stallMs, stall);
}
await reader.close();
report('untrusted-input', figures);
