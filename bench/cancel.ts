// Cancel latency: from the cancel request to the session at rest ('cancelled'), with a
// 10-minute heartbeat so only the notification can stop it. Three set-ups: the worker in
// the requesting process on Postgres and on the embedded database, and a worker in
// another process (LISTEN/NOTIFY).   npm run bench:cancel   (CANCEL_ROUNDS=10)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../src/compose.js';
import type { SessionState } from '../src/engine/session-state.js';
import { SessionLifecycle } from '../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../src/sessions/records/session-store.js';
import { type Database, openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { submit } from '../test/helpers/worker-harness.js';
import { benchDatabase } from './lib/bench-database.js';
import { startBenchWorker } from './lib/bench-worker.js';
import { fmt, median, percentile, report } from './lib/stats.js';

const ROUNDS = Number(process.env.CANCEL_ROUNDS ?? 10);
const LEASE_MS = 1_800_000; // heartbeat = a third: 10 minutes
const WORKER = join(import.meta.dirname, 'lib/worker-process.ts');

async function until<T>(check: () => Promise<T | null | undefined | false>, intervalMs: number): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** ROUNDS sessions, each cancelled once its first cycle is checkpointed; latencies in ms. */
async function measure(db: Database, lifecycle: SessionLifecycle): Promise<number[]> {
  const store = new SessionStore(db.pool);
  const latencies: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const id = await submit(db, `Cancel question ${i + 1}`);
    await until(async () => ((await store.loadCheckpoint(id)) as SessionState | null)?.cycle === 1, 20);
    const started = performance.now();
    if (!(await lifecycle.cancels.request(id, 'bench')))
      throw new Error(`session ${id} could not be cancelled`);
    await until(async () => (await store.get(id))?.status === 'cancelled', 2);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function summary(name: string, ms: number[]): Record<string, number> {
  const figures = { median: median(ms), p95: percentile(ms, 95), max: Math.max(...ms) };
  console.log(
    `${name.padEnd(34)} median ${fmt(figures.median)} ms, p95 ${fmt(figures.p95)} ms, max ${fmt(figures.max)} ms`,
  );
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${name}.${k}Ms`, Number(fmt(v))]));
}

console.log(`cancel: ${ROUNDS} sessions per set-up, heartbeat 10 minutes (only the notification counts)`);
const figures: Record<string, number> = {};

const database = await benchDatabase('cancel');
const postgres = await openDatabase({ url: database.url, dataDir: '' });
await migrate(postgres.pool, MIGRATIONS_DIR);
{
  const lifecycle = new SessionLifecycle(postgres.pool, 24);
  const w = startBenchWorker(postgres, { owner: 'same', leaseMs: LEASE_MS, listen: true, lifecycle });
  Object.assign(figures, summary('postgres, same process', await measure(postgres, lifecycle)));
  await w.stop();
}
{
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, database.url, 'other', String(LEASE_MS), 'listen'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    await once(child.stdout!, 'data');
    const lifecycle = new SessionLifecycle(postgres.pool, 24);
    Object.assign(figures, summary('postgres, across processes', await measure(postgres, lifecycle)));
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
await postgres.close();
await database.drop();

const dir = mkdtempSync(join(tmpdir(), 'bench-cancel-'));
const lite = await openDatabase({ dataDir: dir });
try {
  await migrate(lite.pool, MIGRATIONS_DIR);
  const lifecycle = new SessionLifecycle(lite.pool, 24);
  const w = startBenchWorker(lite, { owner: 'lite', leaseMs: LEASE_MS, listen: true, lifecycle });
  Object.assign(figures, summary('embedded (PGlite), same process', await measure(lite, lifecycle)));
  await w.stop();
} finally {
  await lite.close();
  rmSync(dir, { recursive: true, force: true });
}

const sameMax = Math.max(
  figures['postgres, same process.maxMs']!,
  figures['embedded (PGlite), same process.maxMs']!,
);
const acrossMax = figures['postgres, across processes.maxMs']!;
console.log(
  `same process max ${fmt(sameMax)} ms (target ≤ 1000): ${sameMax <= 1000 ? 'met' : 'missed'}; across processes max ${fmt(acrossMax)} ms (target ≤ 2000): ${acrossMax <= 2000 ? 'met' : 'missed'}`,
);
report('cancel', figures);
