import { describe, expect, it } from 'vitest';
import { reportQuestions } from '../../../src/engine/ask/answer-report-question.js';
import type { FinalReport } from '../../../src/ports/report.js';
import { memorySourceTexts } from '../../fakes/memory-source-texts.js';
import { purpose, ScriptedLlm, type ScriptStep, say } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const A = 'https://a.example/spring';
const B = 'https://b.example/neap';
const C = 'https://c.example/tidal-range';

const REPORT: FinalReport = {
  markdown:
    '## Tides\n\nSpring tides come at new and full moon [1]. Neap tides come at the quarter moons [2].',
  sources: [
    { n: 1, kind: 'web', key: A, url: A, title: 'Spring tides', snippet: '' },
    { n: 2, kind: 'web', key: B, url: B, title: 'Neap tides', snippet: '' },
  ],
  partial: null,
  durationMs: 1000,
  sourcesSeen: 3,
  costUsd: 0.1,
};

async function answerer(step: ScriptStep) {
  const llm = new ScriptedLlm([{ name: 'answer', match: purpose('report_question'), steps: [step] }]);
  const texts = memorySourceTexts();
  await texts.keep('s-1', {
    key: A,
    n: 1,
    url: A,
    title: 'Spring tides',
    text: 'Spring tides come at new and full moon.',
  });
  await texts.keep('s-1', {
    key: B,
    n: 2,
    url: B,
    title: 'Neap tides',
    text: 'Neap tides come at the quarter moons.',
  });
  // Read by the research, never cited by the report.
  await texts.keep('s-0', {
    key: C,
    n: 7,
    url: C,
    title: 'Tidal range',
    text: 'The tidal range at spring tides in the Bay of Fundy reaches 16 metres.',
  });
  const { deps } = harness(llm, {});
  const questions = reportQuestions(async () => ({ ...deps, sourceTexts: texts }), testSettings());
  return {
    llm,
    ask: (question: string) => questions.answer({ question, report: REPORT, sessionIds: ['s-1', 's-0'] }),
  };
}

describe('a question about a report', () => {
  it('is answered from its passages in the report’s numbering; a source it did not cite comes after, unknown numbers go', async () => {
    const { llm, ask } = await answerer({
      ...say(
        JSON.stringify({
          answerable: true,
          answer: 'Spring tides reach 16 metres in the Bay of Fundy [3], at new and full moon [1][9].',
        }),
      ),
      expect: (r) => {
        const passages = r.messages.find((m) => m.content.startsWith('Source passages:'))!.content;
        expect(passages).toContain('[3] Tidal range\nThe tidal range at spring tides');
        expect(passages).toContain('[1] Spring tides\n');
        expect(r.messages.at(-1)!.content).toBe("The reader's question: How high do spring tides get?");
      },
    });
    const answer = await ask('How high do spring tides get?');
    llm.assertDone();
    expect(answer).toMatchObject({
      kind: 'answered',
      markdown: 'Spring tides reach 16 metres in the Bay of Fundy [3], at new and full moon [1].',
      sources: [
        { n: 1, key: A },
        { n: 3, key: C, title: 'Tidal range', url: C },
      ],
    });
    expect(answer.usage.models).toEqual([expect.objectContaining({ purpose: 'report_question', calls: 1 })]);
  });

  it('says when the report and its sources do not answer it', async () => {
    const { ask } = await answerer(say(JSON.stringify({ answerable: false, answer: '' })));
    expect(await ask('What is the price of tea?')).toMatchObject({ kind: 'unanswered' });
  });

  it('names an unusable answer from the model, with what the call cost', async () => {
    const { ask } = await answerer(say('Tides are caused by the moon.'));
    const answer = await ask('Why tides?');
    expect(answer).toMatchObject({
      kind: 'unusable',
      sentence: expect.stringMatching(/^The model's answer could not be used/),
    });
    // Paid for either way: the cost counts against the caps.
    expect(answer.costUsd).toBeGreaterThan(0);
  });
});
