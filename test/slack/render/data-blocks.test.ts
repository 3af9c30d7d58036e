import { describe, expect, it } from 'vitest';
import type { FinalReport } from '../../../src/ports/report.js';
import { dataBlocks, firstTableBlock } from '../../../src/slack/render/data-blocks.js';
import { sourcesMessages } from '../../../src/slack/render/report-messages.js';
import { dataBlockProblem } from '../../fakes/fake-slack-data-blocks.js';

const sources = [
  { n: 1, url: 'https://ev.example/sales', title: 'EV sales', key: 'k1' },
] as FinalReport['sources'];
const chart = {
  title: 'Global EV sales',
  kind: 'line' as const,
  measure: 'EV sales',
  unit: 'million units',
  points: [
    { label: '2019', value: 2.1, source: 1 },
    { label: '2020', value: 3.1, source: 1 },
    { label: '2021', value: 6.6, source: 1 },
  ],
  dropped: 0,
};
const table = (rows: number, columns = 3) =>
  [
    `| ${Array.from({ length: columns }, (_, c) => `H${c}`).join(' | ')} |`,
    `|${' --- |'.repeat(columns)}`,
    ...Array.from(
      { length: rows },
      (_, r) =>
        `| ${Array.from({ length: columns }, (_, c) => (c === 1 ? `${r}` : `r${r} [1]`)).join(' | ')} |`,
    ),
  ].join('\n');
const report = (markdown: string, charts = [chart]): FinalReport =>
  ({ markdown, sources, charts, partial: null, durationMs: 1, sourcesSeen: 1, costUsd: null }) as FinalReport;

describe('charts and tables as Slack data blocks', () => {
  it('are valid as Slack documents them, with their text for a Slack that refuses them', () => {
    const data = dataBlocks(report(`## Prices\n\n${table(3)}`))!;
    expect(dataBlockProblem(data.blocks as never)).toBeUndefined();
    expect(data.blocks.map((b) => b.type)).toEqual(['data_visualization', 'context', 'data_table']);
    expect(JSON.stringify(data.asText)).toContain('2019: 2.1 <https://ev.example/sales|[1]>');
    expect(JSON.stringify(data.asText)).not.toContain('data_');
  });

  it('leave out a table past Slack’s limits (the canvas has it), and the Figures table its chart shows', () => {
    expect(firstTableBlock(table(100), sources)).toBeDefined();
    expect(firstTableBlock(table(101), sources)).toBeUndefined();
    expect(firstTableBlock(table(2, 21), sources)).toBeUndefined();
    expect(firstTableBlock(`## Figures\n\n${table(3)}`, sources)).toBeUndefined();
    expect(dataBlocks(report('No table here.', []))).toBeUndefined();
  });

  it('open the sources message when there is no canvas (and so no summary)', () => {
    const [first, ...rest] = sourcesMessages(report(`## Prices\n\n${table(3)}`), 'footer', 'id');
    expect(first!.blocks[0]!.type).toBe('data_visualization');
    expect(first!.fallback!.blocks[0]!.type).toBe('section');
    expect(rest).toEqual([]);
  });

  it('the fake refuses what Slack refuses', () => {
    const chartBlock = dataBlocks(report('x'))!.blocks[0] as unknown as Record<string, unknown>;
    const broken = (
      change: (b: { title: string; chart: { axis_config: { categories: string[] } } }) => void,
    ) => {
      const b = structuredClone(chartBlock) as never;
      change(b);
      return dataBlockProblem([b]);
    };
    expect(broken((b) => (b.title = 'x'.repeat(51)))).toMatch(/title/);
    expect(broken((b) => b.chart.axis_config.categories.pop())).toMatch(/one finite value per category/);
    expect(dataBlockProblem([chartBlock, chartBlock, chartBlock])).toMatch(/more than two/);
    expect(
      dataBlockProblem([{ type: 'data_table', caption: 'x', rows: [[{ type: 'raw_text', text: 'h' }]] }]),
    ).toMatch(/rows/);
  });
});
