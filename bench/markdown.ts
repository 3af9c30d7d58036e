// Markdown reading cost: the shared parser (src/ports/markdown) on a realistic report and on hostile
// inputs at three sizes; a ratio near 2 per doubling means linear.   npm run bench:markdown
import { renumberCitations } from '../src/engine/citations/renumber-citations.js';
import { markdownToMrkdwn } from '../src/slack/render/mrkdwn.js';
import { fmt, report } from './lib/stats.js';

const paragraph =
  'Heat pumps cut running costs by a third in most climates [1], though installation still costs **more** than a boiler [2, 3]. See https://example.com/study_(2024) and `cop = q / w`.\n\n';
const inputs: Record<string, (n: number) => string> = {
  report: (n) => `## Findings\n\n${paragraph.repeat(Math.ceil(n / paragraph.length))}`.slice(0, n),
  'unclosed [': (n) => `[${'1, '.repeat(n / 3)}`,
  'nested [[': (n) => '[['.repeat(n / 2),
  'backtick runs': (n) => '`` '.repeat(n / 3),
};
const sizes = [25_000, 50_000, 100_000];
const time = (f: () => void) => {
  f();
  const started = performance.now();
  f();
  return performance.now() - started;
};

const figures: Record<string, number> = {};
console.log('input            chars    renumber ms   mrkdwn ms');
for (const [name, make] of Object.entries(inputs)) {
  const ms: number[] = [];
  for (const n of sizes) {
    const text = make(n);
    const renumber = time(() => renumberCitations(text, () => true));
    const render = time(() => markdownToMrkdwn(text, () => 'https://example.com/'));
    ms.push(renumber + render);
    console.log(
      `${name.padEnd(16)} ${String(text.length).padStart(7)} ${fmt(renumber).padStart(12)} ${fmt(render).padStart(11)}`,
    );
  }
  figures[`${name}.msAt100k`] = Number(fmt(ms.at(-1)!));
  figures[`${name}.growth`] = Number(fmt(ms.at(-1)! / ms[0]!, 2));
  console.log(`${name.padEnd(16)} growth ×${fmt(ms.at(-1)! / ms[0]!, 2)} for ×4 the size (linear: about 4)`);
}
report('markdown', figures);
