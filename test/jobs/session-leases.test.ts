import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../src/jobs/maintenance.js';
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { silentLogger } from '../../src/ports/logger.js';
import type { Database } from '../../src/store/database.js';
import { SessionStore } from '../../src/store/session-store.js';
import { realPostgres } from '../helpers/postgres.js';
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
    expect(await Promise.all([a, b, c].map((id) => leases.queuePosition(id)))).toEqual([0, 1, 2]);
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
    await store.create({ id: inline, origin: 'cli', requester: 'r', question: 'q', status: 'running' });
    const queued = await submit(db);
    const leases = new SessionLeases(db.pool, 'w', 30_000);
    expect((await leases.claim())?.id).toBe(queued);
    // Nothing else is queued: the inline session, unleased and "running", must still not be taken.
    expect(await leases.claim()).toBeNull();
  });

  it('counts a person’s unfinished sessions and refuses to cancel a finished one', async () => {
    const requester = `u-${randomUUID()}`;
    const leases = new SessionLeases(db.pool, 'x', 30_000);
    const live = randomUUID();
    const over = randomUUID();
    await store.create({ id: live, origin: 'slack', requester, question: 'q', status: 'clarifying' });
    await store.create({ id: over, origin: 'slack', requester, question: 'q', status: 'done' });
    expect(await leases.activeCount(requester)).toBe(1);
    expect(await leases.requestCancel(over, 'U1')).toBe(false);
    expect(await leases.requestCancel(live, 'U1')).toBe(true);
    expect(await leases.requestCancel(live, 'U1')).toBe(false);
  });

  it('expires clarifications nobody answered in time', async () => {
    const stale = randomUUID();
    const fresh = randomUUID();
    await store.create({ id: stale, origin: 'slack', requester: 'r', question: 'q', status: 'clarifying' });
    await store.create({ id: fresh, origin: 'slack', requester: 'r', question: 'q', status: 'clarifying' });
    await db.pool.query("UPDATE sessions SET updated_at = now() - interval '25 hours' WHERE id = $1", [
      stale,
    ]);
    await runMaintenance(
      store,
      new SessionLeases(db.pool, 'm', 30_000),
      { clarifyTimeoutHours: 24, retentionDays: 90 },
      silentLogger,
    );
    expect((await store.get(stale))!.status).toBe('expired');
    expect((await store.get(fresh))!.status).toBe('clarifying');
  });
});
