// Durability: kill the worker (SIGKILL) at random moments while it runs 20
// sessions, start a new one each time, and count what survives.
//   npm run bench:durability   (DURABILITY_SESSIONS=20, DURABILITY_LEASE_MS=3000)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../src/compose.js';
import { newSession } from '../src/engine/run-session.js';
import { insertQueued } from '../src/sessions/records/insert-session.js';
import { SessionStore } from '../src/sessions/records/session-store.js';
import { migrate } from '../src/store/migrate.js';
import { benchDatabase } from './lib/bench-database.js';
import { fmt, median, report } from './lib/stats.js';

const SESSIONS = Number(process.env.DURABILITY_SESSIONS ?? 20);
const LEASE_MS = Number(process.env.DURABILITY_LEASE_MS ?? 3000);
const WORKER = join(import.meta.dirname, 'lib/worker-process.ts');

const database = await benchDatabase('durability');
const pool = new pg.Pool({ connectionString: database.url, max: 4 });
await migrate(pool, MIGRATIONS_DIR);
const store = new SessionStore(pool);
const ids: string[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const id = randomUUID();
  ids.push(id);
  await insertQueued(
    pool,
    { id, origin: 'cli', requester: `user${i}`, question: `Durability question ${i + 1}` },
    newSession(id, { question: `Durability question ${i + 1}`, skipClarification: true }),
    {},
    24,
  );
}

let generation = 0;
async function startWorker(): Promise<{ child: ChildProcess; owner: string }> {
  const owner = `bench-worker-${++generation}`;
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, database.url, owner, String(LEASE_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout!, 'data');
  return { child, owner };
}
const rows = async () =>
  (await pool.query('SELECT id, status, lease_owner, attempts FROM sessions')).rows as {
    id: string;
    status: string;
    lease_owner: string | null;
    attempts: number;
  }[];
const finished = async () => (await rows()).filter((r) => r.status === 'done').length;

console.log(`durability: ${SESSIONS} sessions, worker SIGKILLed at random moments, lease ${LEASE_MS} ms`);
const started = Date.now();
let current = await startWorker();
const resumeTimes: number[] = [];
let kills = 0;
while ((await finished()) < SESSIONS && Date.now() - started < 10 * 60_000) {
  await new Promise((r) => setTimeout(r, 1000 + Math.random() * 3000));
  if ((await finished()) >= SESSIONS) break;
  const held = (await rows())
    .filter((r) => r.lease_owner === current.owner && r.status !== 'done')
    .map((r) => r.id);
  current.child.kill('SIGKILL');
  await once(current.child, 'exit');
  const killedAt = Date.now();
  kills += 1;
  current = await startWorker();
  // Each session the dead worker held: how long until a live worker runs it again (or it is already done).
  const pending = new Set(held);
  while (pending.size && Date.now() - killedAt < 120_000) {
    for (const r of await rows()) {
      if (pending.has(r.id) && r.lease_owner && r.lease_owner !== `bench-worker-${generation - 1}`) {
        resumeTimes.push(Date.now() - killedAt);
        pending.delete(r.id);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log(`kill ${kills}: ${held.length} sessions were running; ${held.length - pending.size} resumed`);
}
while ((await finished()) < SESSIONS && Date.now() - started < 10 * 60_000)
  await new Promise((r) => setTimeout(r, 200));
current.child.kill('SIGTERM');
await once(current.child, 'exit');

let runTwice = 0;
for (const id of ids) {
  const events = await store.listEvents(id);
  const tasks = events
    .filter((e) => e.event.type === 'agent_started')
    .map((e) => (e.event as { task: string }).task);
  const reports = events.filter((e) => e.event.type === 'report_done').length;
  if (reports > 1 || new Set(tasks).size !== tasks.length) runTwice += 1;
}
const done = await finished();
const figures = {
  sessions: SESSIONS,
  leaseMs: LEASE_MS,
  kills,
  finished: done,
  lost: SESSIONS - done,
  runTwice,
  resumed: resumeTimes.length,
  meanResumeS: resumeTimes.length
    ? Number(fmt(resumeTimes.reduce((a, b) => a + b, 0) / resumeTimes.length / 1000, 2))
    : null,
  medianResumeS: resumeTimes.length ? Number(fmt(median(resumeTimes) / 1000, 2)) : null,
  maxResumeS: resumeTimes.length ? Number(fmt(Math.max(...resumeTimes) / 1000, 2)) : null,
  totalS: Number(fmt((Date.now() - started) / 1000)),
};
for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(16)} ${v}`);
console.log(`lost ${figures.lost} (target 0), run twice ${runTwice} (target 0)`);
report('durability', figures);
await pool.end();
await database.drop();
