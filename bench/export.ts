// Exporting a long report: the 46,000-character report as PDF and Word, in English and in Chinese
// (the CJK font subset into the PDF), its first build and a second; file size, time, RSS rise.
//   npm run bench:export
import { renderExport } from '../src/export/export-report.js';
import type { FinalReport } from '../src/ports/report.js';
import type { ExportFormat, ExportInput } from '../src/ports/report-export.js';
import { fmt, report } from './lib/stats.js';

const CHARS = 46_000;
const SOURCES = 60;
const english =
  'Heat pumps cut running costs by a third in most climates [1], though installation still costs **more** than a boiler [2]. Grants cover up to 7,500 pounds per building in 2026 [3].\n\n';
const chinese =
  '热泵在大多数气候条件下可将运行成本降低三分之一[1]，但安装费用仍高于燃气锅炉[2]。2026年每栋建筑的补助最高为7500英镑[3]。\n\n';
const table =
  '| Region | Price (USD) | Source |\n| --- | --- | --- |\n| Europe | 42 | [4] |\n| Asia | 35 | [5] |\n| America | 48 | [6] |\n\n';

function longReport(paragraph: string): string {
  let text = '# Heat pumps and gas boilers\n\n';
  for (let section = 1; text.length < CHARS; section++) {
    text += `## Part ${section}\n\n`;
    for (let i = 0; i < 6 && text.length < CHARS; i++) text += paragraph;
    if (section % 3 === 0) text += table;
  }
  return text.slice(0, CHARS);
}

const sources = Array.from({ length: SOURCES }, (_, i) => ({
  n: i + 1,
  kind: 'web' as const,
  key: `s${i + 1}`,
  title: `Source ${i + 1}: a study of heating costs`,
  url: `https://example.com/study-${i + 1}`,
  snippet: '',
  quotes: ['installation still costs more than a boiler'],
}));

const input = (markdown: string): ExportInput => ({
  question: 'How do heat pumps compare with gas boilers?',
  date: '2026-11-29T10:00:00Z',
  footer: '14m 02s · 60 sources · session 1a2b3c4d',
  report: {
    markdown,
    sources,
    partial: null,
    durationMs: 1,
    sourcesSeen: SOURCES,
    costUsd: 0.61,
  } as FinalReport,
});

const figures: Record<string, number> = {};
console.log('report    format   chars     size KB   first ms   again ms   RSS rise MB');
for (const [language, paragraph] of [
  ['English', english],
  ['Chinese', chinese],
] as const) {
  const doc = input(longReport(paragraph));
  for (const format of ['pdf', 'docx'] as ExportFormat[]) {
    const rss = process.memoryUsage().rss;
    let started = performance.now();
    const bytes = await renderExport(format, doc);
    const first = performance.now() - started;
    started = performance.now();
    await renderExport(format, doc);
    const again = performance.now() - started;
    const rise = (process.memoryUsage().rss - rss) / 1_048_576;
    const key = `${language.toLowerCase()}.${format}`;
    figures[`${key}.kb`] = Math.round(bytes.length / 1024);
    figures[`${key}.firstMs`] = Math.round(first);
    figures[`${key}.againMs`] = Math.round(again);
    console.log(
      `${language.padEnd(9)} ${format.padEnd(8)} ${String(doc.report.markdown.length).padStart(6)} ${String(Math.round(bytes.length / 1024)).padStart(10)} ${fmt(first, 0).padStart(10)} ${fmt(again, 0).padStart(10)} ${fmt(rise, 0).padStart(12)}`,
    );
  }
}
report('export', figures);
