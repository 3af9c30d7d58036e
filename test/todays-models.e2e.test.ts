import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESEARCH_MODEL } from '../src/config/models.js';
import { runCli } from '../src/main.js';
import type { ServedCall } from './fakes/fake-responses-route.js';
import { render } from './fakes/fake-slack-server.js';
import { RuleLlm } from './fakes/rule-llm.js';
import { cliEnvironment } from './helpers/cli-env.js';
import { io } from './helpers/io.js';
import { eventually, type SlackHarness, slackHarness } from './helpers/slack-harness.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, slashCommand } from './helpers/slack-requests.js';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const PAGES = {
  'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
  'topic 2': ['Neap tides come at the quarter moons, when the sun and the moon pull at right angles.'],
};

let h: SlackHarness | undefined;
let closeCli: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await h?.close();
  await closeCli?.();
  h = undefined;
  closeCli = undefined;
});

/** What every run on today's OpenAI must show: the Responses API only, nothing refused, reasoning carried. */
function expectTodaysWire(calls: ServedCall[], purposes: string[]) {
  expect(calls.filter((c) => c.api !== 'responses' || c.refused)).toEqual([]);
  expect(new Set(calls.map((c) => c.model))).toEqual(new Set([DEFAULT_RESEARCH_MODEL]));
  for (const purpose of purposes) expect(calls.map((c) => c.purpose)).toContain(purpose);
  // Each agent and orchestrator turn after the first sent every earlier turn with the reasoning sealed for it.
  const later = calls.filter((c) => ['agent', 'orchestrator'].includes(c.purpose) && c.earlierTurns! > 0);
  expect(later.length).toBeGreaterThan(0);
  expect(later.filter((c) => c.turnsWithoutReasoning !== 0)).toEqual([]);
}

describe('research on today’s models (gpt-5.5 against a server that behaves as OpenAI does)', () => {
  it('in Slack: a session end to end, an ask and a scheduled run, all on the Responses API', async () => {
    let now = Date.parse('2027-03-02T00:00:00Z');
    h = await slackHarness(
      new RuleLlm({ rounds: 2, readPages: true }),
      // A new install's model: nothing set but the key and the server.
      { RESEARCH_MODEL: '' },
      {
        openai: true,
        localPages: true,
        pageText: PAGES,
        scheduler: { clock: { now: () => now }, everyMs: 100 },
      },
    );
    const harness = h;
    harness.slack.members.set('C1', ['UANN', 'UBOB']);
    const app = await harness.start();
    const ts = '1800000900.000001';
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_mention',
        channel: 'C1',
        user: 'UANN',
        text: '<@UBOT> How do tides work?',
        ts,
      }),
      JSON_TYPE,
    );
    await eventually(
      () => harness.slack.reactionsOn('C1', ts).includes('white_check_mark'),
      60_000,
      'the report',
    );
    expectTodaysWire(harness.model.calls, [
      'clarify',
      'orchestrator',
      'agent',
      'citation_check',
      'final_report',
    ]);

    await signedPost(
      app.url,
      eventCallback({
        type: 'app_mention',
        channel: 'C1',
        user: 'UBOB',
        text: '<@UBOT> When do neap tides come?',
        ts: '1800000900.000100',
        thread_ts: ts,
      }),
      JSON_TYPE,
    );
    await eventually(
      () => harness.slack.thread('C1', ts).find((m) => render(m).includes('quarter moons')),
      20_000,
      'the answer',
    );
    expect(harness.model.calls.at(-1)).toMatchObject({ api: 'responses', purpose: 'report_question' });

    await signedPost(
      app.url,
      slashCommand('every day at 9:00 How do tides work?', 'UANN', harness.slack.responseUrl('every')),
      FORM,
    );
    const scheduled = await eventually(
      () => harness.slack.responses.find((r) => r.url.endsWith('/every')),
      10_000,
      'scheduled',
    );
    expect(String(scheduled.body.text)).toMatch(/^:repeat: Scheduled/);
    const before = harness.model.calls.length;
    const [slot] = await query<{ next_run_at: Date }>(
      harness.env.DATABASE_URL,
      'SELECT next_run_at FROM schedules',
    );
    now = slot!.next_run_at.getTime() + 5000;
    const root = await eventually(
      () =>
        harness.slack.messages.find(
          (m) => m.channel === 'C1' && !m.threadTs && render(m).includes('Scheduled deep research'),
        ),
      20_000,
      'the scheduled run',
    );
    await eventually(
      () => harness.slack.thread('C1', root.ts).some((m) => render(m).startsWith(':memo:')),
      60_000,
      'the scheduled report',
    );
    expectTodaysWire(harness.model.calls.slice(before), ['orchestrator', 'agent', 'final_report']);
  }, 180_000);

  it('in the terminal: ask, ask --about and doctor, which says the API', async () => {
    const cli = await cliEnvironment(
      new RuleLlm({ rounds: 2, readPages: true }),
      { localPages: true, pageText: PAGES },
      { openai: true },
    );
    closeCli = cli.close;
    const env = { ...cli.env, RESEARCH_MODEL: '' };
    delete (env as Record<string, string | undefined>).RESEARCH_MODEL;
    const first = io();
    expect(await runCli(['ask', '--no-clarify', 'How do tides work?'], env, first)).toBe(0);
    expect(first.out.text).toContain('Finding from Topic 2 [2].');
    const id = first.out.text.match(/session ([0-9a-f]{8})/)![1]!;
    const asked = io();
    expect(await runCli(['ask', '--about', id, 'When do spring tides happen?'], env, asked)).toBe(0);
    expectTodaysWire(cli.model.calls, ['orchestrator', 'agent', 'final_report', 'report_question']);

    const doctor = io();
    const before = cli.model.calls.length;
    await runCli(['doctor'], env, doctor);
    // One small turn for the model, though three roles name it.
    expect(cli.model.calls.slice(before).map((c) => c.api)).toEqual(['responses']);
    expect(doctor.out.text).toMatch(
      new RegExp(
        `RESEARCH_MODEL +${DEFAULT_RESEARCH_MODEL.replace('.', '\\.')} .*api: the Responses API \\(the server serves it there\\)`,
      ),
    );
    expect(cli.model.calls.filter((c) => c.refused)).toEqual([]);
  }, 120_000);
});
