import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import { FORM, signedPost, slashCommand } from '../helpers/slack-requests.js';

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

describe('scheduled research in Slack', () => {
  it('schedules from /research every in the person’s time zone and runs once per slot across a daylight-saving change, each run a new thread', async () => {
    const time = movableClock('2027-03-02T00:00:00Z');
    h = await slackHarness(
      new RuleLlm({ rounds: 1 }),
      {},
      { scheduler: { clock: time.clock, everyMs: 100 } },
    );
    h.slack.timeZones.set('UANN', 'America/New_York');
    const app = await h.start();
    await signedPost(
      app.url,
      slashCommand('every monday at 9:00 How do tides work?', 'UANN', h.slack.responseUrl('every')),
      FORM,
    );
    const reply = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/every')),
      10_000,
      'reply',
    );
    expect(String(reply.body.text)).toMatch(/^:repeat: Scheduled `[0-9a-f]{8}`: _How do tides work\?_/);
    expect(String(reply.body.text)).toContain('weekly on monday at 09:00 (America/New_York)');
    const [schedule] = await query<{ id: string; next_run_at: Date }>(
      h.env.DATABASE_URL,
      'SELECT * FROM schedules',
    );
    // 9:00 in New York is 14:00Z before the change (14 March 2027)…
    expect(schedule!.next_run_at.toISOString()).toBe('2027-03-08T14:00:00.000Z');

    time.set('2027-03-08T14:00:05Z');
    const first = await eventually(() => roots(h!)[0], 20_000, 'the first run’s root');
    await eventually(
      () => h!.slack.thread('C1', first.ts).some((m) => render(m).startsWith(':memo:')),
      30_000,
      'the first report',
    );
    // …and 13:00Z after it.
    const [next] = await query<{ next_run_at: Date }>(
      h.env.DATABASE_URL,
      'SELECT next_run_at FROM schedules',
    );
    expect(next!.next_run_at.toISOString()).toBe('2027-03-15T13:00:00.000Z');

    time.set('2027-03-15T13:00:05Z');
    const second = await eventually(() => roots(h!)[1], 20_000, 'the second run’s root');
    await eventually(
      () => h!.slack.thread('C1', second.ts).some((m) => render(m).startsWith(':memo:')),
      30_000,
      'the second report',
    );
    const stored = () =>
      query<{ id: string; status: string; thread_ts: string; schedule_id: string }>(
        h!.env.DATABASE_URL,
        'SELECT id, status, thread_ts, schedule_id FROM sessions ORDER BY created_at',
      );
    const sessions = await eventually(
      async () => ((await stored()).every((s) => s.status === 'done') ? stored() : undefined),
      10_000,
      'both delivered',
    );
    expect(sessions.map((s) => [s.status, s.thread_ts, s.schedule_id])).toEqual([
      ['done', first.ts, schedule!.id],
      ['done', second.ts, schedule!.id],
    ]);
    // One root per slot, each closed with its outcome.
    expect(roots(h)).toHaveLength(2);
    await eventually(
      () => roots(h!).every((r) => render(r).includes('Report ready')),
      10_000,
      'roots closed',
    );
  }, 120_000);
});
