import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askCommand } from '../../src/cli/ask-command.js';
import type { Io } from '../../src/cli/io.js';
import type { Database } from '../../src/store/database.js';
import { call, type Lane, purpose, ScriptedLlm, say } from '../fakes/scripted-llm.js';
import { harness } from '../helpers/engine-harness.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';
import { corpusTools, finalReportStep, researcher, URL_A } from '../helpers/scenario.js';
import { storeOn, terminalDeps, testResearch } from '../helpers/session-room.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(async () => db?.close());

function ask(llm: ScriptedLlm, streams: Io, editor?: string) {
  const { deps } = harness(llm, corpusTools());
  const { emit: _e, saveCheckpoint: _s, ...engine } = deps;
  return askCommand(
    terminalDeps(storeOn(db), testResearch(engine), {
      estimatePlan: async () => '5m 00s–9m 00s · $0.20–$0.60 (from earlier runs)',
      editor,
    }),
    { question: 'How do heat pumps compare with gas boilers?', clarify: false, json: false },
    streams,
  );
}

/** A fresh lane per test: a scripted model uses its steps up. */
const plan = (): Lane => ({
  name: 'plan',
  match: purpose('plan'),
  steps: [say('1. Running costs\n2. Grants')],
});

describe('the plan review at the terminal', () => {
  it('shows the estimate and, on "n", ends before any research', async () => {
    const llm = new ScriptedLlm([plan()]);
    const streams = io(['n\n']);
    expect(await ask(llm, streams)).toBe(1);
    llm.assertDone();
    expect(streams.err.text).toContain(
      'Research plan:\n1. Running costs\n2. Grants\nEstimate: 5m 00s–9m 00s · $0.20–$0.60 (from earlier runs)\nStart? [Y/n/e(dit)/t(ype)] ',
    );
    expect(streams.err.text).toMatch(/Cancelled before research started \(session [0-9a-f-]{36}\)\.\n$/);
    expect(streams.out.text).toBe('');
  });

  it('takes an edited plan after "e" (asking again while it is invalid), and researches with it', async () => {
    const llm = new ScriptedLlm([
      plan(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          {
            ...call('research_agent', { task: 'T1 costs in Europe' }),
            expect: (r) => {
              expect(r.messages[0]!.content).toContain('1. Only Europe\n2. Only 2025 prices');
              expect(r.messages[0]!.content).not.toContain('Running costs');
            },
          },
          call('generate_report'),
        ],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A], URL_A),
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    const streams = io([
      'e\n',
      'Europe only\n',
      '\n',
      'e\n',
      '1. Only Europe\n',
      '2. Only 2025 prices\n',
      '\n',
    ]);
    expect(await ask(llm, streams)).toBe(0);
    llm.assertDone();
    expect(streams.err.text).toContain(
      'Write the plan as numbered steps: "1. …", one per line.\nStart? [Y/n/e(dit)/t(ype)] ',
    );
  });

  it('opens the plan in EDITOR when one is set, and researches with what was saved', async () => {
    const orchestrator: Lane = {
      name: 'orchestrator',
      match: purpose('orchestrator'),
      steps: [
        {
          ...call('research_agent', { task: 'T1 costs in Europe' }),
          expect: (r) => {
            expect(r.messages[0]!.content).toContain('1. Running costs in Europe\n2. Grants');
          },
        },
        call('generate_report'),
      ],
    };
    const llm = new ScriptedLlm([
      plan(),
      orchestrator,
      researcher('T1 costs', 'heat pump costs', [URL_A], URL_A),
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    // An "editor" that changes the first step in the file it is given, as a person would.
    const streams = io(['e\n']);
    expect(await ask(llm, streams, "sed -i 's/^1. Running costs$/1. Running costs in Europe/'")).toBe(0);
    llm.assertDone();
    expect(streams.err.text).not.toContain('Write the plan as numbered steps');
  });

  it('keeps the plan and asks again when the editor fails', async () => {
    const llm = new ScriptedLlm([plan()]);
    const streams = io(['e\n', 'n\n']);
    expect(await ask(llm, streams, 'false')).toBe(1);
    expect(streams.err.text).toContain(
      'The editor (false) did not finish cleanly; the plan is unchanged.\nStart? [Y/n/e(dit)/t(ype)] ',
    );
  });
});
