import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { day } from '../../src/sessions/schedules/what-changed.js';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import {
  buttonClick,
  eventCallback,
  FORM,
  JSON_TYPE,
  signedPost,
  slashCommand,
  viewSubmission,
} from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A clock the test moves; the scheduler looks every 100 ms. */
function movableClock(iso: string) {
  let now = Date.parse(iso);
  return { clock: { now: () => now }, set: (to: string) => (now = Date.parse(to)) };
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const roots = (h: SlackHarness) =>
  h.slack.messages.filter(
    (m) => m.channel === 'C1' && !m.threadTs && render(m).includes('Scheduled deep research'),
  );

/**
 * The real `serve` process against the fakes, its scheduler on a clock the
 * test moves (looking every 100 ms), and what the tests do to it.
 */
async function scheduling(llm = new RuleLlm({ rounds: 1 }), env: Record<string, string> = {}) {
  const time = movableClock('2027-03-02T00:00:00Z');
  h = await slackHarness(llm, env, { scheduler: { clock: time.clock, everyMs: 100 } });
  const harness = h;
  // Its owners are members of the channel their schedules post in (checked at every slot).
  harness.slack.members.set('C1', ['UANN', 'UBOB', 'UCAT']);
  const app = await harness.start();
  const url = harness.env.DATABASE_URL;
  /** A `/research …` command and its private answer. */
  const command = (text: string, id: string, user = 'UANN') =>
    signedPost(app.url, slashCommand(text, user, harness.slack.responseUrl(id)), FORM).then(() =>
      eventually(() => harness.slack.responses.find((r) => r.url.endsWith(`/${id}`)), 10_000, id),
    );
  const schedule = async () =>
    (
      await query<{ id: string; status: string; next_run_at: Date; failures: number; last_result: string }>(
        url,
        'SELECT * FROM schedules ORDER BY created_at',
      )
    )[0]!;
  /** The clock moves just past the (first) schedule's next slot, `after` ms more. */
  const toNextSlot = async (after = 0) =>
    time.set(new Date((await schedule()).next_run_at.getTime() + 5000 + after).toISOString());
  return { h: harness, app, url, time, command, schedule, toNextSlot };
}

describe('scheduled research in Slack', () => {
  it('schedules from /research every in the person’s time zone and runs once per slot across a daylight-saving change, each run a new thread', async () => {
    const { h, url, time, command, schedule } = await scheduling();
    h.slack.timeZones.set('UANN', 'America/New_York');
    const reply = await command('every monday at 9:00 How do tides work?', 'every');
    expect(String(reply.body.text)).toMatch(/^:repeat: Scheduled `[0-9a-f]{8}`: _How do tides work\?_/);
    expect(String(reply.body.text)).toContain('weekly on monday at 09:00 (America/New_York)');
    const { id } = await schedule();
    // 9:00 in New York is 14:00Z before the change (14 March 2027)…
    expect((await schedule()).next_run_at.toISOString()).toBe('2027-03-08T14:00:00.000Z');

    time.set('2027-03-08T14:00:05Z');
    const first = await eventually(() => roots(h)[0], 20_000, 'the first run’s root');
    await eventually(
      () => h.slack.thread('C1', first.ts).some((m) => render(m).startsWith(':memo:')),
      30_000,
      'the first report',
    );
    // …and 13:00Z after it.
    expect((await schedule()).next_run_at.toISOString()).toBe('2027-03-15T13:00:00.000Z');

    time.set('2027-03-15T13:00:05Z');
    const second = await eventually(() => roots(h)[1], 20_000, 'the second run’s root');
    // Nothing changed since the first: one short message instead of a report.
    await eventually(
      () => h.slack.thread('C1', second.ts).some((m) => render(m).includes('Nothing material changed since')),
      30_000,
      'the second run’s message',
    );
    const stored = () =>
      query<{ id: string; status: string; thread_ts: string; schedule_id: string }>(
        url,
        'SELECT id, status, thread_ts, schedule_id FROM sessions ORDER BY created_at',
      );
    const sessions = await eventually(
      async () => ((await stored()).every((s) => s.status === 'done') ? stored() : undefined),
      10_000,
      'both delivered',
    );
    expect(sessions.map((s) => [s.status, s.thread_ts, s.schedule_id])).toEqual([
      ['done', first.ts, id],
      ['done', second.ts, id],
    ]);
    // One root per slot, each closed with its outcome.
    expect(roots(h)).toHaveLength(2);
    await eventually(
      () =>
        render(roots(h)[0]!).includes('*Report ready* · 1 source') &&
        render(roots(h)[1]!).includes('*Nothing material changed* · 1 source'),
      10_000,
      'roots closed',
    );
  }, 120_000);

  it('a later run opens with what changed (a source added, a finding no longer supported); an unchanged one posts one short message linking the earlier report', async () => {
    let edition = '';
    // The judge finds an earlier edition's finding unsupported by a later edition's sources.
    const llm = new RuleLlm({
      rounds: 1,
      judge: (claim) => (edition && !claim.includes(edition) ? 'unsupported' : 'supported'),
    });
    const { h, url, command, toNextSlot } = await scheduling(llm);
    await command('every monday at 9am How do tides work?', 'every');
    const runNext = async (n: number) => {
      await toNextSlot();
      const root = await eventually(() => roots(h)[n - 1], 20_000, `run ${n}'s root`);
      const done = async () =>
        (
          await query<{ id: string; finished_at: Date }>(
            url,
            "SELECT id, finished_at FROM sessions WHERE thread_ts = $1 AND status = 'done'",
            [root.ts],
          )
        )[0];
      return { root, session: await eventually(done, 30_000, `run ${n} delivered`) };
    };

    const first = await runNext(1);
    expect(h.slack.canvases).toHaveLength(1);
    expect(h.slack.canvases[0]!.markdown).not.toContain('What changed');

    edition = 'v2';
    h.search.setEdition('v2');
    const second = await runNext(2);
    expect(h.slack.canvases).toHaveLength(2);
    const changed = h.slack.canvases[1]!.markdown;
    expect(changed).toContain(`## What changed since ${day(first.session.finished_at.toISOString())}`);
    // Each change cited (the canvas links a citation to its source).
    const cite = '[[1](https://example.com/topic-1-v2)]';
    expect(changed).toContain(`- **New:** Finding from Topic 1 (v2) ${cite}.`);
    expect(changed).toContain(
      '- **No longer supported:** Finding from Topic 1. (it cited "Topic 1", gone from this run\'s sources)',
    );
    expect(changed).toContain(`- **Sources added:** Topic 1 (v2) ${cite}`);
    expect(changed).toContain('- **Sources gone:** "Topic 1"');
    // The section comes before the report's own text.
    expect(changed.indexOf('What changed')).toBeLessThan(changed.indexOf('## Report'));

    const third = await runNext(3);
    await eventually(
      () =>
        h.slack.thread('C1', third.root.ts).find((m) => render(m).includes('Nothing material changed since')),
      10_000,
      'the short message',
    );
    const short = h.slack
      .thread('C1', third.root.ts)
      .find((m) => render(m).includes('Nothing material changed since'))!;
    expect(render(short)).toContain(
      `Nothing material changed since ${day(second.session.finished_at.toISOString())}`,
    );
    // It links the earlier run's report (its canvas); this run made no canvas and posted no report.
    expect(render(short)).toContain(`/docs/T1/${h.slack.canvases[1]!.id}|The earlier report>`);
    expect(h.slack.canvases).toHaveLength(2);
    expect(h.slack.thread('C1', third.root.ts).some((m) => render(m).startsWith(':memo:'))).toBe(false);
    // Its report is kept for the next comparison and for `sessions show`.
    const [kept] = await query<{ report: { changes: { material: boolean } } }>(
      url,
      'SELECT report FROM sessions WHERE id = $1',
      [third.session.id],
    );
    expect(kept!.report.changes.material).toBe(false);
  }, 180_000);

  it('runs refused by a cap say so in the channel; three in a row pause the schedule and its owner is told once by DM; a person can resume it', async () => {
    const { h, app, url, command, schedule, toNextSlot } = await scheduling(undefined, {
      MODEL_PRICES: '{"gpt-4.1":{"input":1000,"output":1000}}',
      USER_DAILY_BUDGET_USD: '0.01',
    });
    await command('every day at 9:00 How do tides work?', 'every');
    const refusals = (who = 'UANN') =>
      h.slack.messages.filter((m) => m.channel === 'C1' && render(m).includes(`of ${who} did not start`));
    for (let n = 1; n <= 3; n++) {
      await toNextSlot();
      await eventually(() => refusals().length === n, 20_000, `refusal ${n}`);
    }
    expect(render(refusals()[0]!)).toMatch(
      /^:repeat: Scheduled research `[0-9a-f]{8}` of UANN did not start: You have used \$0\.00 of the \$0\.01 research budget for today/,
    );
    await eventually(async () => (await schedule()).status === 'paused', 10_000, 'paused');
    const dm = await eventually(
      () => h.slack.messages.find((m) => m.channel === 'DUANN' && render(m).includes('paused itself')),
      10_000,
      'the DM',
    );
    expect(render(dm)).toContain('3 runs in a row did not finish; the last: not started: You have used');
    expect(render(dm)).toContain('resume it with `/research schedule resume');
    expect(await query(url, 'SELECT id FROM sessions')).toEqual([]);

    // Paused: its next slot passes with nothing, and the DM is not sent again. Another person's schedule at
    // the same time shows the scheduler did look.
    const id = (await schedule()).id.slice(0, 8);
    await command('every day at 9:00 Tide tables?', 'bob-every', 'UBOB');
    await toNextSlot(86_400_000);
    await eventually(() => refusals('UBOB').length === 1, 20_000, 'the other schedule’s run');
    const listed = await command('schedules', 'list');
    expect(String(listed.body.text)).toContain(`\`${id}\` daily at 09:00 in <#C1>: _How do tides work?_`);
    expect(String(listed.body.text)).toContain(':double_vertical_bar: paused: not started: You have used');
    expect(refusals()).toHaveLength(3);
    expect(h.slack.messages.filter((m) => m.channel === 'DUANN')).toHaveLength(1);

    // Someone else may not resume it; its owner may.
    const other = await command(`schedule resume ${id}`, 'bob', 'UBOB');
    expect(other.body.text).toBe(`Schedule ${id} is UANN's, not yours.`);
    const resumed = await command(`schedule resume ${id}`, 'resume');
    expect(String(resumed.body.text)).toMatch(new RegExp(`^Resumed \`${id}\`: next run <!date\\^\\d+\\^`));
    expect((await schedule()).status).toBe('active');

    // Home lists it with [Pause]; a click pauses it and the view shows [Resume].
    const full = (await schedule()).id;
    const home = () => JSON.stringify(h.slack.homes.get('UANN') ?? '');
    const click = (action: string) =>
      signedPost(
        app.url,
        buttonClick(action, full, 'UANN', { channel: 'C1', ts: '1.0' }, h.slack.responseUrl(action)),
        FORM,
      );
    await click('home_schedule_pause');
    await eventually(() => home().includes('home_schedule_resume'), 10_000, 'Home with Resume');
    expect(home()).toContain('How do tides work?');
    expect(home()).toContain('daily at 09:00 (America/Los_Angeles)');
    expect((await schedule()).status).toBe('paused');
    await click('home_schedule_resume');
    await eventually(async () => (await schedule()).status === 'active', 10_000, 'resumed from Home');
  }, 120_000);

  it('a schedule whose channel the bot left pauses at its next slot, posts nothing there, and tells its owner', async () => {
    const { h, url, command, toNextSlot } = await scheduling();
    await command('every weekdays at 8:30 Tide tables?', 'e');
    h.slack.notInChannel.add('C1');
    await toNextSlot();
    const dm = await eventually(
      () => h.slack.messages.find((m) => m.channel === 'DUANN' && render(m).includes('paused itself')),
      20_000,
      'the DM',
    );
    expect(render(dm)).toContain(
      '(weekdays at 08:30 in <#C1>) paused itself: I am no longer a member of its channel; invite me back (/invite @Deep Research), then resume it.',
    );
    expect(h.slack.messages.filter((m) => m.channel === 'C1')).toEqual([]);
    expect(await query(url, 'SELECT id FROM sessions')).toEqual([]);
  }, 60_000);

  it('a schedule whose owner left the workspace pauses at its next slot, with the reason in its list', async () => {
    const { h, url, command, schedule, toNextSlot } = await scheduling();
    await command('every day at 10:00 Tide tables?', 'e');
    h.slack.deactivated.add('UANN');
    await toNextSlot();
    await eventually(async () => (await schedule()).status === 'paused', 20_000, 'paused');
    expect((await schedule()).last_result).toBe('not started: its owner is no longer in the workspace');
    expect(await query(url, 'SELECT id FROM sessions')).toEqual([]);
    expect(h.slack.messages.filter((m) => m.channel === 'C1')).toEqual([]);
  }, 60_000);

  it('two processes at a slot give one run; a restart in the middle adds none; slots missed while nothing ran give one run', async () => {
    const {
      h,
      app: a,
      url,
      time,
      command,
      schedule,
    } = await scheduling(new RuleLlm({ rounds: 2, delayMs: 150 }));
    const b = await h.start();
    await command('every monday at 9:00 Tide tables?', 'e');
    const nextRun = async () => (await schedule()).next_run_at;
    const sessions = () =>
      query<{ id: string; status: string }>(url, 'SELECT id, status FROM sessions ORDER BY created_at');

    const slot = await nextRun();
    time.set(new Date(slot.getTime() + 5000).toISOString());
    await eventually(async () => (await sessions())[0]?.status === 'running', 20_000, 'the run under way');
    // Both processes stop in the middle of the run; a new one takes the run over and the slot does not run again.
    await Promise.all([a.stop(), b.stop()]);
    await h.start();
    await eventually(async () => (await sessions())[0]?.status === 'done', 60_000, 'the run finished');
    expect(await sessions()).toHaveLength(1);
    expect(roots(h)).toHaveLength(1);

    // Nothing ran for five weeks: one run when a process is back, and the next slot is after now.
    const later = new Date(slot.getTime() + 5 * 7 * 86_400_000 + 3_600_000);
    time.set(later.toISOString());
    await eventually(async () => (await sessions()).length === 2, 20_000, 'the missed slots’ run');
    await eventually(async () => (await sessions()).every((s) => s.status === 'done'), 60_000, 'both done');
    expect((await nextRun()).getTime()).toBeGreaterThan(later.getTime());
    expect(await sessions()).toHaveLength(2);
    expect(roots(h)).toHaveLength(2);
  }, 180_000);

  it('[Repeat…] under a finished report schedules its question in that channel for whoever clicked, with the cadence checked', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    h.slack.timeZones.set('UBOB', 'Europe/Berlin');
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    const app = await h.start();
    const ts = '1800000900.000001';
    const ask = { type: 'app_mention', channel: 'C1', user: 'UANN', text: '<@UBOT> How do tides work?', ts };
    await signedPost(app.url, eventCallback(ask), JSON_TYPE);
    const summary = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).startsWith(':memo:')),
      30_000,
      'the summary',
    );
    const repeat = summary.blocks
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'research_repeat')!;
    await signedPost(
      app.url,
      buttonClick(
        'research_repeat',
        String(repeat.value),
        'UBOB',
        { channel: 'C1', ts: summary.ts, threadTs: ts },
        h.slack.responseUrl('r'),
      ),
      FORM,
    );
    const opened = await eventually(() => h!.slack.views.at(-1), 10_000, 'the form');
    expect(JSON.stringify(opened.view)).toContain('weekly on monday at 9:00');
    // The form carries a token of its own, not the session's id.
    const token = String(opened.view.private_metadata);
    expect(token).not.toBe(String(repeat.value));
    const submit = (value: string) =>
      signedPost(
        app.url,
        viewSubmission('schedule_repeat_form', token, 'UBOB', {
          block: 'cadence',
          action: 'cadence',
          value,
        }),
        FORM,
      );
    const refused = await submit('every hour');
    expect(JSON.parse(refused.body).errors.cadence).toMatch(/^I could not read "every hour" as a cadence/);
    expect(await query(h.env.DATABASE_URL, 'SELECT id FROM schedules')).toEqual([]);
    await submit('weekdays at 8:00');
    const reply = await eventually(
      () =>
        h!.slack.calls.find(
          (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('Scheduled'),
        ),
      10_000,
      'the confirmation',
    );
    expect(reply.args.user).toBe('UBOB');
    const [s] = await query<{
      owner: string;
      channel_id: string;
      question: string;
      cadence: string;
      time_zone: string;
    }>(h.env.DATABASE_URL, 'SELECT * FROM schedules');
    expect([s!.owner, s!.channel_id, s!.question, s!.cadence, s!.time_zone]).toEqual([
      'UBOB',
      'C1',
      'How do tides work?',
      'weekdays at 08:00',
      'Europe/Berlin',
    ]);
  }, 60_000);

  it('a digest schedule runs on in one thread; a reviewed one waits for [Start now] on its plan', async () => {
    const { h, app, url, command, schedule, toNextSlot } = await scheduling(undefined, {
      PLAN_REVIEW_SECONDS: '600',
    });
    await command('every day at 7:00 How do tides work?', 'every');
    const short = (await schedule()).id.slice(0, 8);
    expect(String((await command(`schedule digest ${short} on`, 'digest')).body.text)).toBe(
      `\`${short}\`: runs now go on in one thread, the latest run's, each with what changed since the one before.`,
    );
    const sessions = () =>
      query<{ id: string; status: string; thread_ts: string; turn: number }>(
        url,
        'SELECT id, status, thread_ts, turn FROM sessions ORDER BY created_at',
      );
    const runNext = async (n: number) => {
      await toNextSlot();
      await eventually(async () => (await sessions()).length === n, 20_000, `run ${n}`);
    };
    // Without review the first run goes straight to research; then it is reviewed.
    await runNext(1);
    await eventually(async () => (await sessions())[0]!.status === 'done', 30_000, 'run 1 done');
    await command(`schedule review ${short} on`, 'review');
    await runNext(2);
    const plan = await eventually(
      () =>
        h!.slack.messages.find((m) =>
          m.blocks.some((b) => b.elements?.some((e) => e.action_id === 'research_start_now')),
        ),
      30_000,
      'the plan under review',
    );
    const [first, second] = await sessions();
    expect(second!.status).toBe('reviewing');
    // The same thread, at the next turn; no second root.
    expect(second!.thread_ts).toBe(first!.thread_ts);
    expect(second!.turn).toBe(first!.turn + 1);
    expect(plan.threadTs).toBe(first!.thread_ts);
    expect(roots(h)).toHaveLength(1);
    const start = plan.blocks
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'research_start_now')!;
    await signedPost(
      app.url,
      buttonClick(
        'research_start_now',
        String(start.value),
        'UANN',
        { channel: 'C1', ts: plan.ts, threadTs: plan.threadTs },
        h.slack.responseUrl('go'),
      ),
      FORM,
    );
    await eventually(async () => (await sessions())[1]!.status === 'done', 30_000, 'run 2 done');
    await eventually(
      () =>
        h!.slack
          .thread('C1', first!.thread_ts)
          .some((m) => render(m).includes('Nothing material changed since')),
      10_000,
      'run 2 in the same thread',
    );
  }, 120_000);

  it('a run whose thread Slack will not post fails (it does not wait for a thread forever) and counts as a failed run', async () => {
    const { h, url, command, schedule, toNextSlot } = await scheduling();
    await command('every day at 6:00 Tide tables?', 'e');
    // The bot still looks like a member, but posting there is refused (a restricted channel).
    h.slack.fault({
      methods: ['chat.postMessage'],
      error: 'restricted_action',
      forMs: 60_000,
      channel: 'C1',
    });
    await toNextSlot();
    const failed = await eventually(
      async () =>
        (
          await query<{ status: string; error: string }>(
            url,
            "SELECT * FROM sessions WHERE status = 'failed'",
          )
        )[0],
      20_000,
      'the run failed',
    );
    expect(failed.error).toBe('its thread could not be posted in the channel (restricted_action)');
    await eventually(async () => (await schedule()).failures === 1, 10_000, 'counted');
    expect((await schedule()).last_result).toBe(
      'failed: its thread could not be posted in the channel (restricted_action)',
    );
  }, 60_000);

  it('a schedule whose owner left its channel pauses at its next slot, posts nothing there, and tells its owner; a member may pause one, a non-member may not', async () => {
    const { h, url, command, schedule, toNextSlot } = await scheduling();
    await command('every day at 8:00 Tide tables?', 'e');
    const id = (await schedule()).id.slice(0, 8);
    // Someone outside the channel cannot pause it; a member can, and its owner is told who did.
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    expect((await command(`schedule pause ${id}`, 'cat', 'UCAT')).body.text).toBe(
      `Schedule ${id} is UANN's, not yours.`,
    );
    expect(String((await command(`schedule pause ${id}`, 'bob', 'UBOB')).body.text)).toMatch(/^Paused `/);
    const byBob = await eventually(
      () => h.slack.messages.find((m) => m.channel === 'DUANN' && render(m).includes('was paused by')),
      20_000,
      'the DM saying who paused it',
    );
    expect(render(byBob)).toContain('was paused by UBOB, a member of its channel.');
    expect(String((await command(`schedule resume ${id}`, 'resume')).body.text)).toMatch(/^Resumed /);

    // The owner leaves the channel: the next slot posts nothing and pauses it.
    h.slack.members.set('C1', ['UBOB']);
    await toNextSlot();
    await eventually(async () => (await schedule()).status === 'paused', 20_000, 'paused');
    expect((await schedule()).last_result).toBe(
      'not started: its owner is no longer a member of its channel; they can resume it once they are back, or schedule the question where they are',
    );
    const dm = await eventually(
      () => h.slack.messages.find((m) => m.channel === 'DUANN' && render(m).includes('paused itself')),
      20_000,
      'the DM',
    );
    expect(render(dm)).toContain('its owner is no longer a member of its channel');
    expect(h.slack.messages.filter((m) => m.channel === 'C1')).toEqual([]);
    expect(await query(url, 'SELECT id FROM sessions')).toEqual([]);
  }, 60_000);

  it('[Repeat…] is refused to someone who cannot read the report where they clicked, a forged session, a form made for someone else and a member removed before submitting; /research every in a DM between people is refused before it is stored', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    h.slack.members.set('C2', ['UANN', 'UBOB', 'UEVE']);
    const app = await h.start();
    const ts = '1800000900.000002';
    const ask = { type: 'app_mention', channel: 'C1', user: 'UANN', text: '<@UBOT> How do tides work?', ts };
    await signedPost(app.url, eventCallback(ask), JSON_TYPE);
    const summary = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).startsWith(':memo:')),
      30_000,
      'the summary',
    );
    const sessionId = String(
      summary.blocks
        .find((b) => b.type === 'actions')!
        .elements!.find((e) => e.action_id === 'research_repeat')!.value,
    );
    let n = 0;
    const click = async (user: string, channel: string) => {
      n++;
      await signedPost(
        app.url,
        buttonClick(
          'research_repeat',
          sessionId,
          user,
          { channel, ts: summary.ts },
          h!.slack.responseUrl(`r${n}`),
        ),
        FORM,
      );
      return String(
        (
          await eventually(
            () => h!.slack.responses.find((r) => r.url.endsWith(`/r${n}`)),
            10_000,
            `reply ${n}`,
          )
        ).body.text,
      );
    };
    const refusal = /^You can repeat a report only where it is shown to you/;
    // A person not in the report's private channel, a click claiming another channel, a DM not the requester's.
    expect(await click('UEVE', 'C1')).toMatch(refusal);
    expect(await click('UEVE', 'C2')).toMatch(refusal);
    expect(await click('UBOB', 'DUBOB')).toMatch(refusal);
    expect(h.slack.views).toHaveLength(0);

    const submit = (token: string, user: string, value = 'weekly on monday at 9:00') =>
      signedPost(
        app.url,
        viewSubmission('schedule_repeat_form', token, user, { block: 'cadence', action: 'cadence', value }),
        FORM,
      ).then((r) => (r.body ? JSON.parse(r.body) : {}));
    // A form naming the session's id itself (as forms did before) schedules nothing.
    expect((await submit(sessionId, 'UBOB')).errors.cadence).toBe('That research no longer exists.');

    // A member opens the form; another person cannot use its token; once removed from the channel, neither can they.
    await signedPost(
      app.url,
      buttonClick(
        'research_repeat',
        sessionId,
        'UBOB',
        { channel: 'C1', ts: summary.ts },
        h.slack.responseUrl('ok'),
      ),
      FORM,
    );
    const token = String(
      (await eventually(() => h!.slack.views.at(-1), 10_000, 'the form')).view.private_metadata,
    );
    expect((await submit(token, 'UEVE')).errors.cadence).toBe('That research no longer exists.');
    h.slack.members.set('C1', ['UANN']);
    // The form closes (Slack's answer may take longer than it may wait); the refusal comes privately.
    expect(await submit(token, 'UBOB')).toEqual({});
    await eventually(
      () =>
        h!.slack.calls.find(
          (c) =>
            c.method === 'chat.postEphemeral' && c.args.user === 'UBOB' && refusal.test(String(c.args.text)),
        ),
      10_000,
      'the private refusal',
    );
    expect(await query(h.env.DATABASE_URL, 'SELECT id FROM schedules')).toEqual([]);

    // A DM between two people (the app's DM with UBOB is DUBOB) is refused before anything is stored.
    await signedPost(
      app.url,
      slashCommand('every monday at 9:00 Tide tables?', 'UBOB', h.slack.responseUrl('dm'), {
        channel_id: 'DPAIR',
      }),
      FORM,
    );
    const dm = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/dm')),
      10_000,
      'the reply',
    );
    expect(dm.body.text).toBe(
      'I cannot post in a conversation between people: schedule it in a channel I am in, or in your direct message with me.',
    );
    expect(await query(h.env.DATABASE_URL, 'SELECT id FROM schedules')).toEqual([]);
  }, 60_000);

  it('200 schedules of one person refused at one slot say so in one message, without a ping, even when Slack fails for a while, and another person’s schedule at that slot runs', async () => {
    const { h, url, command, schedule, toNextSlot } = await scheduling(undefined, {
      MAX_SESSIONS_PER_USER: '1',
      SCHEDULES_PER_PERSON: '300',
      SCHEDULES_PER_CHANNEL: '300',
    });
    await command('every day at 9:00 Tide tables 0?', 'e');
    const first = await schedule();
    // 199 more of UANN's at the same slot (as if made before the limits), and one of UBOB's.
    await query(
      url,
      `INSERT INTO schedules (id, origin, owner, team_id, channel_id, question, cadence, cron, time_zone, next_run_at, created_at)
       SELECT gen_random_uuid(), origin, owner, team_id, channel_id, 'Tide tables ' || i || '?', cadence, cron, time_zone,
         next_run_at, created_at + i * interval '1 ms'
       FROM schedules, generate_series(1, 199) i WHERE id = $1`,
      [first.id],
    );
    await command('every day at 9:00 Moon phases?', 'bob', 'UBOB');
    // Slack drops the connection on the first refusal message, and keeps failing for a few seconds: it is said
    // at a later pass, once.
    h.slack.fault({
      methods: ['chat.postMessage'],
      error: 'network',
      forMs: 3000,
      from: (_method, args) => String(args.text ?? '').includes('did not start'),
    });
    await toNextSlot();
    const bobs = await eventually(
      () =>
        h.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs && render(m).includes('Moon phases?')),
      30_000,
      'UBOB’s run',
    );
    expect(render(bobs)).toContain('Scheduled deep research');
    const refused = await eventually(
      () => h.slack.messages.find((m) => m.channel === 'C1' && render(m).includes('did not start')),
      30_000,
      'the refusal message',
    );
    await eventually(
      async () =>
        (await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM schedule_refusals'))[0]!.n === 0,
      30_000,
      'every refusal said',
    );
    const said = h.slack.messages.filter((m) => m.channel === 'C1' && render(m).includes('did not start'));
    expect(said).toHaveLength(1);
    const dropped = h.slack.calls.filter(
      (c) => c.error === 'fault:network' && String(c.args.text).includes('did not start'),
    );
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    // UANN's runs took the per-person limit of 1 in turn (a run that ends frees it); the rest were refused.
    const runs = await query<{ requester: string }>(url, 'SELECT requester FROM sessions ORDER BY requester');
    const ann = runs.filter((r) => r.requester === 'UANN').length;
    expect(runs.filter((r) => r.requester === 'UBOB')).toHaveLength(1);
    expect(ann).toBeGreaterThanOrEqual(1);
    expect(ann).toBeLessThan(10);
    expect(render(refused)).toMatch(
      new RegExp(`^:repeat: ${200 - ann} scheduled researches of UANN did not start: `),
    );
    expect(render(refused)).toContain(`…and ${200 - ann - 5} more`);
    expect(render(refused)).not.toContain('<@');
  }, 120_000);
});
