import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AskOptions, askCommand } from '../../src/cli/ask-command.js';
import type { Io } from '../../src/cli/io.js';
import { listSessions, showSession } from '../../src/cli/sessions-command.js';
import { runCli } from '../../src/main.js';
import { ProviderError } from '../../src/ports/errors.js';
import type { AdmissionRules } from '../../src/sessions/admission.js';
import type { Store } from '../../src/sessions/records/store.js';
import type { Database } from '../../src/store/database.js';
import { judged } from '../fakes/rule-llm.js';
import {
  agentWithTask,
  call,
  dispatch,
  type Lane,
  planLane,
  purpose,
  ScriptedLlm,
  say,
} from '../fakes/scripted-llm.js';
import { harness, testSettings } from '../helpers/engine-harness.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';
import { corpusTools, finalReportStep, researcher, URL_A, URL_B, URL_C } from '../helpers/scenario.js';
import { agentsState, storeOn, terminalDeps, testResearch, testService } from '../helpers/session-room.js';

let shared: Database;
beforeAll(async () => {
  shared = await realPostgres();
});
afterAll(async () => shared?.close());

/** `ask` on the shared test database (or `store`'s), as a new install runs it: recorded, under a lease. */
function ask(
  llm: ScriptedLlm,
  options: Partial<AskOptions>,
  streams: Io,
  store: Store = storeOn(shared),
  rules: () => Promise<AdmissionRules> = async () => ({ perUser: 100, caps: {}, costUsd: null }),
) {
  const { deps } = harness(llm, corpusTools());
  const { emit: _e, saveCheckpoint: _s, ...engine } = deps;
  // The defaults a new install has: the findings checked against the plan, the citations against their sources.
  const research = testResearch(
    engine,
    testSettings({ citationCheck: { mode: 'model', timeMs: 60_000, tokens: 60_000 }, coverageCheck: true }),
  );
  return askCommand(
    terminalDeps(store, research, { rules, logger: engine.logger }),
    { question: 'How do heat pumps compare with gas boilers?', clarify: true, json: false, ...options },
    streams,
  );
}

/** Clarify, plan, cycle 1 with three parallel agents (one fails), cycle 2 with one more, then the report. */
function wholeSession(): Lane[] {
  return [
    {
      name: 'clarify',
      match: purpose('clarify'),
      steps: [say('1. Which country?\n2. New build or retrofit?')],
    },
    {
      name: 'plan',
      match: purpose('plan'),
      steps: [
        {
          ...say('1. Running costs\n2. Efficiency\n3. Grants'),
          expect: (r) => expect(r.messages[1]!.content).toContain('Retrofit in England'),
        },
      ],
    },
    {
      name: 'orchestrator',
      match: purpose('orchestrator'),
      steps: [
        dispatch('T1 costs of heat pumps', 'T2 boiler efficiency', 'T3 installer capacity'),
        call('research_agent', { task: 'T4 grants available in 2025' }),
        call('generate_report'),
      ],
    },
    researcher('T1 costs', 'heat pump costs', [URL_A, URL_B], URL_A),
    researcher('T2 boiler', 'boiler efficiency', [URL_C, URL_A]),
    {
      name: 'T3',
      match: agentWithTask('T3 installer'),
      steps: [{ error: new ProviderError('llm_http_error', 'The model server answered HTTP 400', false) }],
    },
    researcher('T4 grants', 'grants 2025', ['https://d.example/grants']),
    { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    { name: 'coverage', match: purpose('coverage_check'), steps: [say(JSON.stringify({ steps: [] }))] },
    {
      name: 'judge',
      match: purpose('citation_check'),
      steps: [{ reply: (r) => ({ text: JSON.stringify({ verdicts: judged(r, () => 'supported') }) }) }],
    },
  ];
}

describe('deep-research ask', () => {
  it('drives a whole session: clarification answered, plan, progress, cited report with exactly its sources', async () => {
    const llm = new ScriptedLlm(wholeSession());
    const out = join(mkdtempSync(join(tmpdir(), 'ask-')), 'report.md');
    const streams = io(['Retrofit in England\n']);
    const code = await ask(llm, { out }, streams);
    llm.assertDone();
    // Questions, plan and progress on stderr; stdout holds the report alone (`ask … > report.md`).
    const progress = streams.err.text;
    const text = streams.out.text;
    expect(code).toBe(0);
    expect(progress).toContain('1. Which country?');
    expect(progress).toContain('Research plan:\n1. Running costs');
    expect(progress).toContain('Cycle 1 of 8');
    expect(progress).toContain('Cycle 2 of 8');
    expect(progress).toContain('[1.1] started: T1 costs of heat pumps');
    expect(progress).toContain('[1.1] searching "heat pump costs"');
    expect(progress).toContain('[1.1] reading a.example/costs');
    expect(progress).toContain('⚠ [1.3] T3 installer capacity: failed (The model server answered HTTP 400)');
    expect(progress).toContain('✓ [1.2] T2 boiler efficiency: done, 2 sources');
    expect(progress).toContain('✓ [2.1] T4 grants available in 2025: done, 1 source\n');
    expect(progress).not.toContain('## Findings');
    expect(text).not.toContain('Cycle 1 of 8');
    expect(text).toMatch(/session [0-9a-f-]{36}/);
    // One agent of four failed: the report is labelled partial with what it was to find, and why it failed.
    expect(text).toContain(
      '> **Partial report:** 1 of 4 research agents failed: “T3 installer capacity” (The model server answered HTTP 400',
    );

    const report = text.slice(text.indexOf('## Findings'));
    const cited = new Map(
      [...report.matchAll(/Fact about (\S+) \[(\d+)\]/g)].map((m) => [Number(m[2]), m[1]]),
    );
    const listed = new Map(
      [...report.matchAll(/^(\d+)\. \[.*\]\((\S+)\)/gm)].map((m) => [Number(m[1]), m[2]]),
    );
    expect(cited.size).toBe(4);
    expect(listed).toEqual(cited);
    expect(report).not.toContain('[999]');

    // Piped, stdout is the document --out writes, byte for byte: Markdown from its first line.
    const file = readFileSync(out, 'utf8');
    expect(file.startsWith('# How do heat pumps compare with gas boilers?')).toBe(true);
    expect(file).toMatch(/## Sources\n\n1\. \[.+\]\(https:\/\/\S+\), \S+/);
    expect(text).toBe(file);
  });

  it('renders the report for a terminal (styled, no Markdown markup), with the same sources', async () => {
    const llm = new ScriptedLlm(wholeSession());
    const streams = io(['Retrofit in England\n']);
    // A tall window: the report fits, so no pager is started.
    Object.assign(streams.out, { isTTY: true, columns: 80, rows: 10_000 });
    expect(await ask(llm, {}, streams)).toBe(0);
    const shown = streams.out.text;
    expect(shown).toContain('\x1b[1mFindings\x1b[22m');
    expect(shown).not.toMatch(/^#{1,6} /m);
    expect(shown).toContain('\x1b[36m[1]\x1b[39m');
    const plain = stripVTControlCharacters(shown);
    for (const line of plain.split('\n')) expect(line.length).toBeLessThanOrEqual(79);
    expect(plain).toContain(`[2] Heat pump costs (a.example)\n    ${URL_A}\n`);
  });

  it('prints events as JSON lines with --json, ending with the result', async () => {
    const llm = new ScriptedLlm(wholeSession());
    // Nobody is at a prompt: the answer to the clarifying questions comes with the command.
    const streams = io();
    expect(await ask(llm, { json: true, answers: 'Retrofit in England' }, streams)).toBe(0);
    const lines = streams.out.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The session id comes first, so a script can follow or show it.
    expect(lines[0]).toEqual({
      type: 'session',
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      question: 'How do heat pumps compare with gas boilers?',
    });
    expect(lines[1]).toEqual({ type: 'phase', phase: 'clarify' });
    expect(lines.map((l) => l.type)).toContain('agent_failed');
    const result = lines.at(-1);
    expect(result.type).toBe('result');
    expect(result.report.sources).toHaveLength(4);
    expect(lines.find((l) => l.type === 'clarification')).toBeTruthy();
  });

  it('fails at once with --json and neither --no-clarify nor --answers, before any model call', async () => {
    const streams = io();
    expect(await ask(new ScriptedLlm([]), { json: true }, streams)).toBe(2);
    expect(streams.err.text).toBe(
      'error: --json cannot ask clarifying questions at a prompt: add --no-clarify, or --answers "…" with the answer to give if asked.\n',
    );
    expect(streams.out.text).toBe('');
  });

  it('starts without answering when the answer is an empty line, or with --no-clarify skips the question', async () => {
    const lanes = wholeSession();
    lanes[1]!.steps[0]!.expect = (r) => expect(r.messages[1]!.content).toContain('I chose not to answer');
    const streams = io(['\n']);
    expect(await ask(new ScriptedLlm(lanes), {}, streams)).toBe(0);

    const skipping = wholeSession().filter((l) => l.name !== 'clarify');
    skipping[0]!.steps[0]!.expect = undefined;
    const llm = new ScriptedLlm(skipping);
    expect(await ask(llm, { clarify: false }, io())).toBe(0);
    llm.assertDone();
  });

  it('cancels cleanly on Ctrl-C and still prints what was found', async () => {
    const controller = new AbortController();
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' }), call('research_agent', { task: 'T2 slow' })],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A]),
      {
        name: 'T2',
        match: agentWithTask('T2 slow'),
        steps: [
          {
            ...call('generate_report'),
            delayMs: 60_000,
            expect: () => setTimeout(() => controller.abort(), 50),
          },
        ],
      },
    ]);
    const streams = io([], controller.signal);
    const started = Date.now();
    const code = await ask(llm, { clarify: false }, streams);
    llm.assertDone();
    expect(code).toBe(130);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(streams.err.text).toContain('Cancelled. What was found so far:');
    expect(streams.out.text).toContain(`Fact about ${URL_A} [1]`);
    expect(streams.out.text).toContain(`1. [Heat pump costs](${URL_A}), a.example`);
  });

  it('prints the report and says where it is kept when the --out folder went away during the research', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ask-')), 'reports');
    mkdirSync(dir);
    const lanes = wholeSession();
    const report = lanes.find((l) => l.name === 'report')!;
    report.steps[0] = { ...finalReportStep, expect: () => rmSync(dir, { recursive: true }) };
    const streams = io(['Retrofit in England\n']);
    expect(await ask(new ScriptedLlm(lanes), { out: join(dir, 'report.md') }, streams)).toBe(1);
    expect(streams.out.text).toContain('## Sources');
    expect(streams.err.text).toMatch(
      /\nerror: could not write the report to .+report\.md \(ENOENT\); it is printed above and kept: deep-research sessions show [0-9a-f]{8} --out FILE\n$/,
    );
  });

  it('refuses an empty question', async () => {
    const streams = io();
    expect(await ask(new ScriptedLlm([]), { question: '   ' }, streams)).toBe(2);
    expect(streams.err.text).toMatch(/^error: give a question/);
  });
});

describe('sessions in the store', () => {
  it('records the session as it runs, and lists and shows it afterwards', async () => {
    const db = await realPostgres();
    try {
      const store = storeOn(db);
      const { sessions } = store;
      const llm = new ScriptedLlm(wholeSession());
      const asked = io(['Retrofit in England\n']);
      expect(await ask(llm, {}, asked, store)).toBe(0);
      const [row] = await sessions.listRecent({ limit: 5 });
      expect(row).toMatchObject({
        origin: 'cli',
        requester: 'ann',
        status: 'done',
        plan: '1. Running costs\n2. Efficiency\n3. Grants',
      });
      expect(row!.report!.sources).toHaveLength(4);
      const events = (await sessions.listEvents(row!.id)).map((e) => e.event.type);
      expect(events[0]).toBe('phase');
      expect(events).toContain('clarification');
      expect(events).toContain('agent_failed');
      expect(events.at(-1)).toBe('usage');
      expect(events).not.toContain('report_delta');
      expect((await agentsState(sessions, row!.id))!.phase).toBe('done');

      const list = io();
      await listSessions(sessions, list, { limit: 20, json: false });
      expect(list.out.text).toMatch(
        new RegExp(
          `^ID        CREATED \\(UTC\\)     STATUS         QUESTION\n${row!.id.slice(0, 8)}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  done {11}How do heat pumps`,
        ),
      );
      const show = io();
      const { deps } = harness(new ScriptedLlm([]), corpusTools());
      const { emit: _e, saveCheckpoint: _s, ...engine } = deps;
      const service = testService(db, { research: testResearch(engine) });
      const view = (id: string) => service.view(id);
      expect(await showSession(store, row!.id.slice(0, 8), show, { json: false, view })).toBe(0);
      expect(show.err.text).toContain('Clarifying questions:\n');
      expect(show.err.text).toContain('Answer: Retrofit in England');
      expect(show.err.text).toContain('Research plan:\n1. Running costs');
      // On a pipe, the report exactly as ask printed it: the Markdown document --out writes.
      expect(show.out.text).toBe(asked.out.text);
      expect(show.out.text).toMatch(/^# .+\n\n[\s\S]*\n## Sources\n\n1\. \[/);
      const missing = io();
      expect(await showSession(store, 'ffffffff', missing, { json: false })).toBe(1);
      expect(missing.err.text).toContain('no session matches "ffffffff"');
    } finally {
      await db.close();
    }
  });

  it('is admitted like Slack: a research the caps would not cover is refused with the same sentence, before any model call', async () => {
    const db = await realPostgres();
    try {
      const store = storeOn(db);
      const rules = async () => ({
        perUser: 2,
        caps: { userDailyUsd: 0.5 },
        costUsd: [1, 2] as [number, number],
      });
      const streams = io();
      const llm = new ScriptedLlm([]);
      expect(await ask(llm, { clarify: false }, streams, store, rules)).toBe(1);
      expect(streams.err.text).toBe(
        'error: You have used $0.00 of the $0.50 research budget for today, and a research costs at least about $1.00; try again tomorrow (UTC), or ask an admin to raise USER_DAILY_BUDGET_USD.\n',
      );
      expect(await store.sessions.listRecent({ limit: 5 })).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('marks a failed session failed with its reason', async () => {
    const db = await realPostgres();
    try {
      const store = storeOn(db);
      const { sessions } = store;
      const llm = new ScriptedLlm([
        {
          name: 'plan',
          match: purpose('plan'),
          steps: [
            { error: new ProviderError('llm_http_error', 'The model server answered HTTP 500', false) },
          ],
        },
      ]);
      const streams = io();
      expect(await ask(llm, { clarify: false }, streams, store)).toBe(1);
      const [row] = await sessions.listRecent({ limit: 1 });
      expect(row).toMatchObject({ status: 'failed', error: 'The model server answered HTTP 500' });
      // The failure is the last line of stderr, after the progress lines, and the only error there.
      expect(
        streams.err.text.endsWith(`\nerror: The model server answered HTTP 500 (session ${row!.id})\n`),
      ).toBe(true);
      expect(streams.err.text.match(/error/gi)).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});

describe('deep-research command line', () => {
  const run = async (argv: string[], env: Record<string, string>) => {
    const streams = io();
    const code = await runCli(argv, env, streams);
    return { code, out: streams.out.text, err: streams.err.text };
  };

  it('says in one line when no model key or a provider without its key is configured', async () => {
    expect(await run(['ask', 'q'], {})).toEqual({
      code: 1,
      out: '',
      err: 'error: OPENAI_API_KEY is not set: set it to your OpenAI API key, or set OPENAI_BASE_URL to an OpenAI-compatible server.\n',
    });
    expect(await run(['ask', 'q'], { OPENAI_API_KEY: 'k', SEARCH_PROVIDER: 'brave' })).toEqual({
      code: 1,
      out: '',
      err: 'error: SEARCH_PROVIDER=brave needs BRAVE_API_KEY: set it, or choose another provider.\n',
    });
  });

  it('prints one command\'s help for "help COMMAND" and "COMMAND --help", and an error object with --json', async () => {
    const ask = await run(['ask', '--help'], {});
    expect(ask.code).toBe(0);
    expect(ask.out).toMatch(/^Usage: deep-research ask\n\n {2}ask "question"/);
    expect((await run(['help', 'kb'], {})).out).toContain('  kb remove PATH...');
    const failed = await run(['ask', '--json', '--no-clarify', 'q'], {});
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/^OPENAI_API_KEY is not set/),
    });
  });

  it('prints usage for help and unknown commands', async () => {
    expect((await run(['help'], {})).out).toContain('deep-research <command>');
    const flag = await run(['ask', '--bogus', 'q'], {});
    expect(flag).toEqual({
      code: 2,
      out: '',
      err: "error: Unknown option '--bogus'. See deep-research help ask.\n",
    });
    const unknown = await run(['frobnicate'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "frobnicate"');
  });

  it('refuses a question with control characters or over the limit before anything runs', async () => {
    const streams = io();
    const code = await ask(new ScriptedLlm([]), { question: 'What is\u0000 this?' }, streams);
    expect(code).toBe(2);
    expect(streams.err.text).toMatch(/^error: Your question contains control characters/);
    const long = io();
    expect(await ask(new ScriptedLlm([]), { question: 'why '.repeat(600) }, long)).toBe(2);
    expect(long.err.text).toContain('the limit is 2,000');
  });
});
