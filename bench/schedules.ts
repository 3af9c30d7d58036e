// The scheduler's overhead with 1,000 schedules on real Postgres: what a pass costs when nothing is due
// (every worker makes one every 10 s), and per due slot (taken, admitted as a queued session, settled),
// with two workers passing at once over the same 200 due slots (none may run twice).
//   npm run bench:schedules
import { randomUUID } from 'node:crypto';
import { MIGRATIONS_DIR } from '../src/compose.js';
import { silentLogger } from '../src/ports/logger.js';
import { ScheduleStore } from '../src/sessions/records/schedule-store.js';
import { SessionStore } from '../src/sessions/records/session-store.js';
import { nextSlot } from '../src/sessions/schedules/cadence.js';
import { runDueSlots, type ScheduledRunsDeps } from '../src/sessions/schedules/scheduled-runs.js';
import { openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
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
report('schedules', figures);
process.exit(0);
