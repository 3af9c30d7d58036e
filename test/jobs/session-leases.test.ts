import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';
import { insertSession } from '../helpers/sessions.js';
import { submit } from '../helpers/worker-harness.js';

let db: Database;
let store: SessionStore;
beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(() => db.close());

describe('session leases', () => {
  it('knows the queue position and lets only one claim take a session', async () => {
    const [a, b, c] = [await submit(db), await submit(db), await submit(db)];
    const leases = new SessionLeases(db.pool, 'x', 30_000);
    expect(await Promise.all([a, b, c].map((id) => store.queuePosition(id)))).toEqual([0, 1, 2]);
    const claims = await Promise.all(
      Array.from({ length: 5 }, (_, i) => new SessionLeases(db.pool, `w${i}`, 30_000).claim()),
    );
    const got = claims.filter(Boolean).map((cl) => cl!.id);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(new Set([a, b, c]));
    expect(await leases.claim()).toBeNull();
  });

  it('never claims a session that a CLI process runs itself', async () => {
    const inline = randomUUID();
    await insertSession(db.pool, { id: inline, requester: 'r', status: 'running' });
    const queued = await submit(db);
    const leases = new SessionLeases(db.pool, 'w', 30_000);
    expect((await leases.claim())?.id).toBe(queued);
    // Nothing else is queued: the inline session, unleased and "running", must still not be taken.
    expect(await leases.claim()).toBeNull();
  });

  it('does not take a second time a session its own worker still runs when that lease lapsed', async () => {
    const id = await submit(db);
    const leases = new SessionLeases(db.pool, 'stalled', 1);
    expect((await leases.claim())?.id).toBe(id);
    // A 1 ms lease has lapsed by the time Postgres answers the next statement.
    await db.pool.query('SELECT pg_sleep(0.01)');
    expect(await leases.claim([id])).toBeNull();
    expect(await leases.heartbeat(id)).toEqual({ held: true, cancelRequested: false });
    // Another worker may take it over once it lapses again; the first then learns it lost it.
    await db.pool.query('SELECT pg_sleep(0.01)');
    const other = await new SessionLeases(db.pool, 'other', 30_000).claim();
    expect(other).toEqual({ id, attempts: 2 });
    expect((await leases.heartbeat(id)).held).toBe(false);
  });
});
