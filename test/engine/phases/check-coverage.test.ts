import { describe, expect, it } from 'vitest';
import type { EngineSettings } from '../../../src/engine/settings.js';
import {
  call,
  dispatch,
  type Lane,
  purpose,
  ScriptedLlm,
  type ScriptStep,
  say,
} from '../../fakes/scripted-llm.js';
import { harness, run, testSettings } from '../../helpers/engine-harness.js';
import { corpusTools, finalReportStep, researcher, URL_A, URL_B, URL_C } from '../../helpers/scenario.js';

const QUESTION = { question: 'How do heat pumps compare with gas boilers?' };
const THIN = say(
  JSON.stringify({
    steps: [
      { step: 1, covered: true, missing: '' },
      { step: 2, covered: false, missing: 'How efficient boilers are is still unknown.' },
    ],
  }),
);

function lanes(orchestrator: ScriptStep[], coverage: ScriptStep[], extra: Lane[] = []): Lane[] {
  return [
    { name: 'plan', match: purpose('plan'), steps: [say('1. Costs\n2. Efficiency')] },
    { name: 'orchestrator', match: purpose('orchestrator'), steps: orchestrator },
    researcher('T1 costs', 'heat pump costs', [URL_A, URL_B]),
    { name: 'coverage', match: purpose('coverage_check'), steps: coverage },
    { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ...extra,
  ];
}

const settings = (overrides: Partial<EngineSettings> = {}) =>
  testSettings({ coverageCheck: true, timeBudgetMs: 20 * 60_000, ...overrides });

describe('the coverage check before the report', () => {
  it('gives a thin step one more cycle when budget is left, once', async () => {
    const llm = new ScriptedLlm(
      lanes(
        [
          dispatch('T1 costs of heat pumps'),
          call('generate_report'),
          {
            ...dispatch('T2 boiler efficiency'),
            expect: (r) =>
              expect(r.messages.map((m) => m.content).join('\n')).toContain(
                'Step 2: How efficient boilers are is still unknown',
              ),
          },
          // Asked for the report again: not checked a second time, so it cannot loop.
          call('generate_report'),
        ],
        [THIN],
        [researcher('T2 boiler', 'boiler efficiency', [URL_C])],
      ),
    );
    const h = harness(llm, corpusTools());
    const outcome = await run(h, settings(), QUESTION);
    llm.assertDone();
    if (outcome.kind !== 'done') throw new Error(outcome.kind);
    expect(outcome.report.markdown).toContain(`Fact about ${URL_C}`);
    expect(outcome.report.markdown).not.toContain('Thin coverage');
    expect(h.events.filter((e) => e.type === 'checking').map((e) => e.type === 'checking' && e.text)).toEqual(
      [
        'Checking the findings against the plan',
        'Plan check: one step is thin, researching it one more cycle',
      ],
    );
  });

  it('names the thin step in the report when no budget is left', async () => {
    const llm = new ScriptedLlm(lanes([dispatch('T1 costs of heat pumps')], [THIN]));
    const h = harness(llm, corpusTools());
    const outcome = await run(h, settings({ maxCycles: 1 }), QUESTION);
    llm.assertDone();
    if (outcome.kind !== 'done') throw new Error(outcome.kind);
    expect(outcome.report.markdown).toMatch(
      /^> \*\*Thin coverage:\*\* the findings leave these steps of the plan thin: Step 2: How efficient boilers are is still unknown\.\n\n## Findings/,
    );
  });

  it('writes the report as it would have when the check fails or answers garbage', async () => {
    for (const failing of [{ error: new Error('model server down') }, say('Looks fine to me!')]) {
      const llm = new ScriptedLlm(
        lanes([dispatch('T1 costs of heat pumps'), call('generate_report')], [failing]),
      );
      const outcome = await run(harness(llm, corpusTools()), settings(), QUESTION);
      llm.assertDone();
      if (outcome.kind !== 'done') throw new Error(outcome.kind);
      expect(outcome.report.markdown).toContain(`Fact about ${URL_A}`);
      expect(outcome.report.markdown).not.toContain('Thin coverage');
    }
  });
});
