import { describe, expect, it } from 'vitest';
import { newSession, runSession } from '../../../src/engine/run-session.js';
import type { FinalReport } from '../../../src/ports/report.js';
import { fakePageReader, fakeWebSearch } from '../../fakes/fake-tools.js';
import { RuleLlm } from '../../fakes/rule-llm.js';
import type { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const SERIES =
  'Global EV sales were 2.1 million in 2019, 3.1 million in 2020, 6.6 million in 2021, 10.5 million in 2022 and 14 million in 2023.';
const points = (values: [string, number][], source = 1) =>
  values.map(([label, value]) => ({ label, value, source }));
const FIVE: [string, number][] = [
  ['2019', 2.1],
  ['2020', 3.1],
  ['2021', 6.6],
  ['2022', 10.5],
  ['2023', 14],
];

async function research(
  charts: ConstructorParameters<typeof RuleLlm>[0],
  extra = `${SERIES.replace(/\.$/, '')} [1].`,
) {
  const llm = new RuleLlm({ rounds: 1, reportExtra: extra, ...charts });
  const h = harness(llm as unknown as ScriptedLlm, {
    webSearch: fakeWebSearch({
      'Topic 1': [{ url: 'https://ev.example/sales', title: 'EV sales', snippet: SERIES }],
    }),
    pageReader: fakePageReader({}),
  });
  const outcome = await runSession(
    h.deps,
    testSettings({ charts: true }),
    newSession('s-1', { question: 'How fast are EV sales growing?', skipClarification: true }),
  );
  if (outcome.kind !== 'done') throw new Error(outcome.kind);
  return {
    report: outcome.report as FinalReport,
    calls: llm.calls.filter((c) => c.purpose === 'report_charts'),
  };
}

describe('charts of a report’s cited figures', () => {
  it('keeps the points whose figures the report states and the cited source holds, and says how many went', async () => {
    const { report } = await research({
      charts: [
        {
          title: 'Global EV sales',
          kind: 'line',
          measure: 'EV sales',
          unit: 'million units',
          // A planted point: 2024's figure is in no source and not in the report.
          points: [...points(FIVE), { label: '2024', value: 17.3, source: 1 }],
        },
        // A chart citing a source the report does not cite is no chart.
        { title: 'Nothing', kind: 'bar', measure: 'x', unit: 'y', points: points(FIVE, 7) },
      ],
    });
    expect(report.charts).toEqual([
      {
        title: 'Global EV sales',
        kind: 'line',
        measure: 'EV sales',
        unit: 'million units',
        points: points(FIVE),
        dropped: 1,
      },
    ]);
    expect(report.markdown).toContain('## Figures');
    expect(report.markdown).toContain('| 2021 | 6.6 | [1] |');
    expect(report.markdown).toContain(
      '1 proposed point was left out: its figure is not in the source cited for it.',
    );
  });

  it('asks nothing of the model when the report states fewer than three cited figures, and draws no chart', async () => {
    const { report, calls } = await research(
      { charts: [{ title: 'x', kind: 'bar', measure: 'x', unit: 'y', points: points(FIVE) }] },
      'EV sales grew fast [1].',
    );
    expect(calls).toHaveLength(0);
    expect(report.charts).toBeUndefined();
    expect(report.markdown).not.toContain('## Figures');
  });

  it('draws no chart when too few points hold', async () => {
    const { report } = await research({
      charts: [
        {
          title: 'x',
          kind: 'bar',
          measure: 'x',
          unit: 'y',
          points: points([
            ['2019', 2.1],
            ['2020', 3.1],
            ['2021', 9.9],
          ]),
        },
      ],
    });
    expect(report.charts).toBeUndefined();
  });
});
