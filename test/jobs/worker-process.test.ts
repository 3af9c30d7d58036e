import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';
import { agentsState } from '../helpers/session-room.js';
import { LEASE_MS, spawnWorker, submit, waitFor } from '../helpers/worker-harness.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/worker-process.ts');
let db: Database;
let store: SessionStore;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db.close();
});

async function startWorkerProcess(owner: string, delayMs: number): Promise<ChildProcess> {
  return spawnWorker(FIXTURE, [db.url, owner, String(delayMs)], children);
}

const reachedCycle = (id: string, cycle: number) => async () =>
  ((await agentsState(store, id))?.cycle ?? 0) >= cycle;
const done = (id: string) => async () => {
  const row = await store.get(id);
  return row?.status === 'done' ? row : null;
};

async function assertRunOnce(id: string) {
  const events = await store.listEvents(id);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  const tasks = events
    .filter((e) => e.event.type === 'agent_started')
    .map((e) => (e.event as { task: string }).task);
  expect(tasks).toEqual(['Topic 1', 'Topic 2', 'Topic 3']);
  expect(events.filter((e) => e.event.type === 'report_done')).toHaveLength(1);
  const row = await store.get(id);
  expect(row!.report!.sources.map((s) => s.title)).toEqual(['Topic 1', 'Topic 2', 'Topic 3']);
}

describe('worker processes', () => {
  it('resumes a session from its last checkpoint after its worker is SIGKILLed', async () => {
    const id = await submit(db);
    const first = await startWorkerProcess('killed', 200);
    await waitFor(reachedCycle(id, 1));
    first.kill('SIGKILL');
    await once(first, 'exit');
    const { rows } = await db.pool.query('SELECT status, lease_owner FROM sessions WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'running', lease_owner: 'killed' });

    const second = await startWorkerProcess('rescuer', 0);
    // Counted from the rescuer's start (a busy machine takes seconds to spawn it): the lease's lapse, then the run.
    const readyAt = Date.now();
    const row = await waitFor(done(id));
    const resumedAfter = Date.now() - readyAt;
    second.kill('SIGTERM');
    await once(second, 'exit');
    expect(resumedAfter).toBeLessThan(LEASE_MS + 20_000);
    const attempts = await db.pool.query('SELECT attempts FROM sessions WHERE id = $1', [id]);
    expect(attempts.rows[0].attempts).toBe(2);
    expect(row.status).toBe('done');
    await assertRunOnce(id);
  });

  it('on SIGTERM releases the session at once and exits; a second worker finishes it', async () => {
    const id = await submit(db);
    const first = await startWorkerProcess('graceful', 200);
    await waitFor(reachedCycle(id, 1));
    const signalled = Date.now();
    first.kill('SIGTERM');
    const [code] = await once(first, 'exit');
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3000);
    const { rows } = await db.pool.query('SELECT status, lease_owner FROM sessions WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'running', lease_owner: null });

    const second = await startWorkerProcess('finisher', 0);
    await waitFor(done(id));
    second.kill('SIGTERM');
    await once(second, 'exit');
    await assertRunOnce(id);
  });
});
