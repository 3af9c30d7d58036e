import mammoth from 'mammoth';
import { afterEach, describe, expect, it } from 'vitest';
import { extractPdf } from '../../src/search/read/extract-pdf.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import { buttonClick, FORM, signedPost } from '../helpers/slack-requests.js';
import { researchReviewed } from '../helpers/slack-research.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SERIES =
  'Global EV sales were 2.1 million in 2019, 3.1 million in 2020, 6.6 million in 2021, 10.5 million in 2022 and 14 million in 2023.';
const PRICES = 'A charger costs 42 dollars in Europe, 35 dollars in Asia and 48 dollars in America.';
const FIVE = [
  ['2019', 2.1],
  ['2020', 3.1],
  ['2021', 6.6],
  ['2022', 10.5],
  ['2023', 14],
] as const;
const REPORT_EXTRA = `${SERIES.replace(/\.$/, '')} [1].

## 中文摘要

2023年全球电动汽车销量达到1400万辆 [1]。

## Charger prices by region

| Region | Price (USD) | Source |
| --- | --- | --- |
| Europe | 42 | [1] |
| Asia | 35 | [1] |
| America | 48 | [1] |`;

/** A new install's defaults (plan review, canvases, streams): a report whose source holds a five-year series. */
async function charted() {
  h = await slackHarness(
    new RuleLlm({
      rounds: 1,
      readPages: true,
      reportExtra: REPORT_EXTRA,
      charts: [
        {
          title: 'Global EV sales',
          kind: 'line',
          measure: 'EV sales',
          unit: 'million units',
          // 2024's figure is planted: no source holds it.
          points: [
            ...FIVE.map(([label, value]) => ({ label, value, source: 1 })),
            { label: '2024', value: 17.3, source: 1 },
          ],
        },
      ],
    }),
    { PLAN_REVIEW_SECONDS: '60' },
    { localPages: true, pageText: { 'topic 1': [SERIES, PRICES] } },
  );
  h.slack.members.set('C1', ['UANN', 'UBOB']);
  return h;
}

type Block = {
  type: string;
  title?: string;
  chart?: Record<string, unknown>;
  caption?: string;
  rows?: unknown[][];
};

describe('charts and tables in Slack', () => {
  it('puts the five cited points in a chart and the comparison in a data table in the summary; the canvas and report.md have them as tables', async () => {
    const h = await charted();
    const app = await h.start();
    const { root, summary } = await researchReviewed(h, app.url, 'How fast are EV sales growing?', 'UANN');
    const blocks = summary.blocks as unknown as Block[];
    const chart = blocks.find((b) => b.type === 'data_visualization')!;
    expect(chart.title).toBe('Global EV sales');
    expect(chart.chart).toMatchObject({
      type: 'line',
      axis_config: { categories: ['2019', '2020', '2021', '2022', '2023'], y_label: 'million units' },
      series: [{ name: 'EV sales', data: FIVE.map(([label, value]) => ({ label, value })) }],
    });
    const note = JSON.stringify(blocks[blocks.indexOf(chart) + 1]);
    expect(note).toMatch(/from <http:\/\/127\.0\.0\.1:\d+\/topic-1\|\[1\]>/);
    expect(note).toContain('1 point left out: not in its cited source');
    const table = blocks.find((b) => b.type === 'data_table')!;
    expect(table.caption).toBe('Charger prices by region');
    expect(table.rows![0]).toEqual([
      { type: 'raw_text', text: 'Region' },
      { type: 'raw_text', text: 'Price (USD)' },
      { type: 'raw_text', text: 'Source' },
    ]);
    expect(table.rows![1]![1]).toEqual({ type: 'raw_number', value: 42, text: '42' });
    expect(table.rows![1]![2]).toEqual({
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            { type: 'link', text: '[1]', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/topic-1$/) },
          ],
        },
      ],
    });
    expect(h.slack.dataBlockProblems).toEqual([]);

    const canvas = h.slack.canvases[0]!.markdown;
    expect(canvas).toContain('## Figures');
    expect(canvas).toMatch(/\| 2021 \| 6\.6 \| \[\[1\]\(http:\/\/127\.0\.0\.1:\d+\/topic-1\)\] \|/);
    expect(canvas).not.toContain('17.3');
    const file = await eventually(
      () => h.slack.files.find((f) => f.content.includes('## Figures')),
      10_000,
      'report.md',
    );
    expect(file.content).toContain('| Europe | 42 | [1] |');

    // [Download as PDF] and [Download as Word]: the files arrive in the thread and open with the report in them.
    const actions = summary.blocks.find((b) => b.type === 'actions')!.elements!;
    const click = async (action: string, user: string, channel: string, id: string) => {
      const button = actions.find((e) => e.action_id === action)!;
      await signedPost(
        app.url,
        buttonClick(
          action,
          String(button.value),
          user,
          { channel, ts: summary.ts, threadTs: root.ts },
          h.slack.responseUrl(id),
        ),
        FORM,
      );
      return String(
        (await eventually(() => h.slack.responses.find((r) => r.url.endsWith(`/${id}`)), 20_000, id)).body
          .text,
      );
    };
    expect(await click('research_export_pdf', 'UANN', 'C1', 'pdf')).toMatch(
      /^:page_facing_up: The PDF \(\d+ KB\) is on its way/,
    );
    expect(await click('research_export_docx', 'UANN', 'C1', 'docx')).toMatch(/The Word file/);
    expect(await click('research_export_pdf', 'UANN', 'C1', 'pdf-again')).toBe(
      'The PDF is in the thread already.',
    );
    // A click naming this report from another conversation exports nothing there.
    expect(await click('research_export_pdf', 'UEVE', 'C9', 'elsewhere')).toBe(
      'You can export a report only where it is shown to you.',
    );
    const uploaded = (ext: string) =>
      eventually(
        () => h.slack.files.find((f) => f.title?.includes(ext) && f.threadTs === root.ts && f.bytes),
        20_000,
        ext,
      );
    const pdf = (await extractPdf((await uploaded('PDF')).bytes!)).text;
    const word = (await mammoth.extractRawText({ buffer: (await uploaded('Word')).bytes! })).value;
    for (const text of [pdf, word]) {
      for (const heading of ['Charger prices by region', '中文摘要', 'Figures', 'Sources'])
        expect(text).toContain(heading);
      expect(text).toContain('[1]');
    }
    expect(h.slack.files.filter((f) => f.title?.includes('PDF'))).toHaveLength(1);
  }, 90_000);

  it('sends the chart and the table as text where Slack refuses the new blocks, and that is no failure', async () => {
    const h = await charted();
    h.slack.refusesDataBlocks.on = true;
    const app = await h.start();
    const { summary } = await researchReviewed(h, app.url, 'How fast are EV sales growing?', 'UANN');
    const text = JSON.stringify(summary.blocks);
    expect(text).not.toContain('data_visualization');
    expect(text).toContain(':bar_chart: *Global EV sales* (million units): 2019: 2.1');
    expect(text).toContain('Europe');
    expect(h.slack.calls.some((c) => c.method === 'chat.postMessage' && c.error === 'invalid_blocks')).toBe(
      true,
    );
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  }, 90_000);
});
