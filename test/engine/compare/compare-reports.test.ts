import { describe, expect, it } from 'vitest';
import { reportComparison } from '../../../src/engine/compare/compare-reports.js';
import { ProviderError } from '../../../src/ports/errors.js';
import type { FinalReport, Source } from '../../../src/ports/report.js';
import { memorySourceTexts } from '../../fakes/memory-source-texts.js';
import { purpose, ScriptedLlm, type ScriptStep } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const web = (n: number, key: string, title: string): Source => ({
  n,
  kind: 'web',
  key,
  url: key,
  title,
  snippet: '',
});
const OLD = 'https://a.example/prices-2026';
const KEPT = 'https://b.example/plans';
const NEW = 'https://c.example/prices-2027';

const report = (markdown: string, sources: Source[]): FinalReport => ({
  markdown,
  sources,
  partial: null,
  durationMs: 1000,
  sourcesSeen: sources.length,
  costUsd: 0.1,
});

const EARLIER = {
  sessionId: 'run-1',
  finishedAt: new Date('2027-03-08T14:20:00Z'),
  report: report('Acme charges $10 a seat [1]. Acme has three plans [2].', [
    web(1, OLD, 'Acme prices 2026'),
    web(2, KEPT, 'Acme plans'),
  ]),
};
const NOW = report('Acme has three plans [1]. Acme now charges by usage [2].', [
  web(1, KEPT, 'Acme plans'),
  web(2, NEW, 'Acme prices 2027'),
]);

async function compare(steps: ScriptStep[], kept: { key: string; text: string }[]) {
  const llm = new ScriptedLlm(
    steps.length ? [{ name: 'judge', match: purpose('citation_check'), steps }] : [],
  );
  const texts = memorySourceTexts();
  for (const [i, k] of kept.entries())
    await texts.keep('run-2', { key: k.key, n: i + 1, url: k.key, title: k.key, text: k.text });
  const { deps } = harness(llm, {});
  const comparison = reportComparison(async () => ({ ...deps, sourceTexts: texts }), testSettings());
  const result = await comparison.compare(EARLIER, 'run-2', NOW);
  llm.assertDone();
  return { ...result, llm };
}

describe('comparing a scheduled run with the earlier one', () => {
  it('names sources added and gone, findings only new sources support, and an earlier finding the judge no longer finds support for', async () => {
    const { changes } = await compare(
      [
        {
          expect: (r) => expect(r.messages.at(-1)!.content).toContain('Claim: Acme charges $10 a seat.'),
          reply: { text: JSON.stringify({ verdicts: [{ pair: 1, verdict: 'unsupported', quote: '' }] }) },
        },
      ],
      [{ key: NEW, text: 'From March 2027 Acme charges by usage, not per seat.' }],
    );
    expect(changes).toEqual({
      earlierSessionId: 'run-1',
      since: '2027-03-08T14:20:00.000Z',
      material: true,
      added: [{ n: 2, title: 'Acme prices 2027' }],
      gone: [{ title: 'Acme prices 2026', url: OLD }],
      newFindings: ['Acme now charges by usage [2].'],
      dropped: [{ text: 'Acme charges $10 a seat.', sources: [{ title: 'Acme prices 2026', url: OLD }] }],
    });
  });

  it('keeps an earlier finding the judge finds support for, and calls nothing when the new sources do not speak of it', async () => {
    const supported = await compare(
      [{ reply: { text: JSON.stringify({ verdicts: [{ pair: 1, verdict: 'supported', quote: 'seat' }] }) } }],
      [{ key: NEW, text: 'Acme still charges $10 a seat.' }],
    );
    expect(supported.changes.dropped).toEqual([]);
    expect(supported.changes.material).toBe(true);
    const unspoken = await compare([], [{ key: NEW, text: 'Weather in Lisbon.' }]);
    expect(unspoken.changes.dropped.map((d) => d.text)).toEqual(['Acme charges $10 a seat.']);
  });

  it('says the findings it could not check, and why, when the judge fails', async () => {
    const { changes } = await compare(
      [
        {
          error: new ProviderError(
            'unreachable',
            'the model server at 127.0.0.1:11434 cannot be reached (ECONNREFUSED)',
            true,
          ),
        },
      ],
      [{ key: NEW, text: 'Acme charges $12 a seat from March.' }],
    );
    expect(changes.dropped).toEqual([]);
    expect(changes.unchecked).toEqual({
      count: 1,
      reason: 'the check failed (the model server at 127.0.0.1:11434 cannot be reached (ECONNREFUSED))',
    });
  });
});
