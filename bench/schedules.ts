// The scheduler's overhead with 1,000 schedules on real Postgres: what a pass costs when nothing is due
// (every worker makes one every 10 s), and per due slot (taken, admitted as a queued session, settled),
// with two workers passing at once over the same 200 due slots (none may run twice). Then fairness: how late
// an unrelated person's Slack slot is admitted while 100 and 1,000 of one person's Slack schedules, due at the
// same minute, are refused (her per-person limit reached), Slack's side through the real Web API client and
// its rate limits against the in-repo fake Slack; and how many messages say those refusals.
//   npm run bench:schedules
import { randomUUID } from 'node:crypto';
import { MIGRATIONS_DIR } from '../src/compose.js';
import { silentLogger } from '../src/ports/logger.js';
import { ScheduleStore } from '../src/sessions/records/schedule-store.js';
import { SessionStore } from '../src/sessions/records/session-store.js';
import { nextSlot } from '../src/sessions/schedules/cadence.js';
import { runDueSlots, type ScheduledRunsDeps } from '../src/sessions/schedules/scheduled-runs.js';
import { slackApiFor } from '../src/slack/api/slack-clients.js';
import { SlackRateLimits } from '../src/slack/api/slack-rate-limits.js';
import { ChannelMembers } from '../src/slack/channel-members.js';
import { scheduledSlack } from '../src/slack/schedules/scheduled-slack.js';
import { openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { fakeSlackServer } from '../test/fakes/fake-slack-server.js';
import { testService } from '../test/helpers/session-room.js';
import { benchDatabase, writeStats } from './lib/bench-database.js';
import { fmt, median, percentile, report } from './lib/stats.js';

const SCHEDULES = 1000;
const DUE = 200;
const { url, drop } = await benchDatabase('schedules');
const db = await openDatabase({ url, dataDir: '', maxConnections: 10 });
const figures: Record<string, number> = {};
// Statements sent, counted on every connection the pool opens (pool.query and admission's transaction alike).
let statements = 0;
db.pool.on('connect', (client) => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    statements++;
    return query(...args);
  };
});
try {
  await migrate(db.pool, MIGRATIONS_DIR);
  const schedules = new ScheduleStore(db.pool);
  const sessions = new SessionStore(db.pool);
  const deps = (): ScheduledRunsDeps => ({
    schedules,
    service: testService(db, { rules: async () => ({ perUser: 10_000, caps: {}, costUsd: null }) }),
    exists: async (id) => (await sessions.get(id)) !== null,
    planReviewSeconds: 0,
    log: silentLogger,
  });
  const now = new Date('2026-11-30T12:00:00Z');
  const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'];
  for (let i = 0; i < SCHEDULES; i++) {
    const zone = zones[i % zones.length]!;
    const cron = `${i % 60} ${(i * 7) % 24} * * ${i % 7}`;
    // The first DUE are due at `now`; the others' next slot is after it.
    const nextRunAt = i < DUE ? new Date(now.getTime() - (i + 1) * 1000) : nextSlot(cron, zone, now);
    await schedules.add(
      {
        id: randomUUID(),
        origin: 'cli',
        owner: `person${i % 50}`,
        question: `What changed in topic ${i} this week?`,
        cadence: 'weekly',
        cron,
        timeZone: zone,
        nextRunAt,
      },
      { perPerson: 10_000, perChannel: 10_000 },
    );
  }
  await db.pool.query('ANALYZE schedules');

  // An idle pass: nothing due (before the first due slot).
  const idle: number[] = [];
  const before = new Date(now.getTime() - DUE * 1000 - 60_000);
  statements = 0;
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await runDueSlots(deps(), before);
    idle.push(performance.now() - started);
  }
  figures.idlePassMedianMs = median(idle);
  figures.idlePassP95Ms = percentile(idle, 95);
  figures.idlePassStatements = statements / 50;
  console.log(
    `idle pass (1,000 schedules, none due): median ${fmt(median(idle), 2)} ms, p95 ${fmt(percentile(idle, 95), 2)} ms, ${statements / 50} statement`,
  );

  // Two workers pass at once until every due slot is admitted. Idle backends report what they wrote within
  // 10 s (Postgres 15's stats interval): waited for, so the set-up is not counted as the passes' work.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const writesBefore = await writeStats(url);
  statements = 0;
  const started = performance.now();
  const perPass: number[] = [];
  let admitted = 0;
  while (admitted < DUE) {
    const passStart = performance.now();
    const [a, b] = await Promise.all([runDueSlots(deps(), now), runDueSlots(deps(), now)]);
    perPass.push(performance.now() - passStart);
    if (a + b === 0) break;
    admitted += a + b;
  }
  const elapsed = performance.now() - started;
  const { rows } = await db.pool.query(
    'SELECT count(*)::int AS runs, count(DISTINCT (schedule_id))::int AS schedules FROM sessions',
  );
  // A backend reports what it wrote when it ends (or some seconds later): the pool's end them first.
  await db.pool.end();
  const writes = await writeStats(url);
  figures.dueSlots = DUE;
  figures.runsAdmitted = rows[0].runs;
  figures.duplicateRuns = rows[0].runs - rows[0].schedules;
  figures.msPerDueSlot = elapsed / DUE;
  figures.statementsPerDueSlot = statements / DUE;
  figures.rowsWrittenPerDueSlot = (writes.rows - writesBefore.rows) / DUE;
  figures.commitsPerDueSlot = (writes.commits - writesBefore.commits) / DUE;
  console.log(
    `${DUE} due slots, two workers at once: ${rows[0].runs} runs for ${rows[0].schedules} schedules (duplicates ${figures.duplicateRuns}), ` +
      `${fmt(elapsed / DUE, 2)} ms per slot, ${fmt(statements / DUE, 1)} statements, ${fmt(figures.rowsWrittenPerDueSlot, 1)} rows written and ${fmt(figures.commitsPerDueSlot, 1)} transactions per slot, ${perPass.length} passes`,
  );
} finally {
  await db.close().catch(() => {});
  await drop();
}

// Fairness: one person's refused Slack schedules and another's slot at the same minute.
for (const refusedCount of [100, 1000]) {
  const { url: fairUrl, drop: dropFair } = await benchDatabase(`fair${refusedCount}`);
  const fair = await openDatabase({ url: fairUrl, dataDir: '', maxConnections: 10 });
  const slack = await fakeSlackServer();
  slack.members.set('C1', ['ana', 'bob']);
  try {
    await migrate(fair.pool, MIGRATIONS_DIR);
    const schedules = new ScheduleStore(fair.pool);
    const sessions = new SessionStore(fair.pool);
    const api = slackApiFor('delivery', 'xoxb-test-token', new SlackRateLimits(), silentLogger, slack.apiUrl);
    const scheduled = scheduledSlack({
      api,
      schedules,
      sessions,
      members: new ChannelMembers(api),
      log: silentLogger,
    });
    const slot = new Date('2026-11-30T09:00:00Z');
    for (let i = 0; i <= refusedCount; i++) {
      const owner = i === refusedCount ? 'bob' : 'ana';
      await schedules.add(
        {
          id: randomUUID(),
          origin: 'slack',
          owner,
          teamId: 'T1',
          channelId: 'C1',
          question: `Topic ${i}?`,
          cadence: 'daily at 09:00',
          cron: '0 9 * * *',
          timeZone: 'UTC',
          // Every one at 09:00, as a cadence in words gives them.
          nextRunAt: slot,
        },
        { perPerson: 10_000, perChannel: 10_000 },
      );
    }
    const room = testService(fair, { rules: async () => ({ perUser: 10_000, caps: {}, costUsd: null }) });
    const started = performance.now();
    let bobAdmittedMs = Number.NaN;
    const deps: ScheduledRunsDeps = {
      schedules,
      service: {
        queue: async (request, opening) => {
          // Ana has reached her per-person limit: each of her runs is refused.
          if (request.session.requester === 'ana')
            return { started: false, refusal: { kind: 'too_many', active: 2, limit: 2 } };
          const result = await room.queue(request, opening);
          bobAdmittedMs = performance.now() - started;
          return result;
        },
      },
      exists: async (id) => (await sessions.get(id)) !== null,
      slack: scheduled,
      planReviewSeconds: 0,
      log: silentLogger,
    };
    let passes = 0;
    let passesMs = 0;
    const now = new Date(slot.getTime() + 5000);
    for (;;) {
      const before = performance.now();
      await runDueSlots(deps, now);
      await scheduled.notifyRefusals();
      passes++;
      passesMs += performance.now() - before;
      const { rows } = await fair.pool.query(
        `SELECT (SELECT count(*) FROM schedules WHERE pending_slot IS NOT NULL OR next_run_at <= $1)::int AS due,
           (SELECT count(*) FROM schedule_refusals)::int AS unsaid`,
        [now],
      );
      if (rows[0].due === 0 && rows[0].unsaid === 0) break;
    }
    const said = slack.messages.filter((m) => m.channel === 'C1' && m.text.includes('did not start'));
    const slackCalls = slack.calls.length;
    figures[`bobDelayMsWith${refusedCount}Refused`] = bobAdmittedMs;
    figures[`passesFor${refusedCount}Refused`] = passes;
    figures[`msFor${refusedCount}Refused`] = passesMs;
    figures[`refusalMessagesFor${refusedCount}`] = said.length;
    figures[`slackCallsFor${refusedCount}`] = slackCalls;
    console.log(
      `${refusedCount} of one person's Slack schedules refused at one minute: another person's slot admitted after ${fmt(bobAdmittedMs, 0)} ms; ` +
        `all ${refusedCount + 1} slots settled and said in ${passes} pass(es), ${fmt(passesMs, 0)} ms; ${said.length} refusal message(s), ${slackCalls} Slack calls`,
    );
  } finally {
    await fair.close().catch(() => {});
    await slack.close();
    await dropFair();
  }
}
report('schedules', figures);
process.exit(0);
