import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { testSettings } from '../helpers/engine-harness.js';
import { embeddedPglite, realPostgres } from '../helpers/postgres.js';
import { agentsState } from '../helpers/session-room.js';
import { submit, waitFor, worker } from '../helpers/worker-harness.js';

let db: Database;
let store: SessionStore;
beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(() => db.close());

const finished = (id: string) => async () => {
  const row = await store.get(id);
  return row && ['done', 'failed', 'cancelled'].includes(row.status) ? row : null;
};

describe('worker', () => {
  it('claims a queued session, runs it to a report and lets go of it', async () => {
    const id = await submit(db);
    const w = worker(db, new RuleLlm(), 'w1');
    const row = await waitFor(finished(id));
    await w.stop();
    expect(row.status).toBe('done');
    expect(row.report!.markdown).toContain('Finding from Topic 1 [1].');
    expect(row.report!.sources.map((s) => s.url)).toEqual([
      'https://example.com/topic-1',
      'https://example.com/topic-2',
    ]);
    const lease = await db.pool.query('SELECT lease_owner, attempts FROM sessions WHERE id = $1', [id]);
    expect(lease.rows[0]).toEqual({ lease_owner: null, attempts: 1 });
    const types = (await store.listEvents(id)).map((e) => e.event.type);
    expect(types.filter((t) => t === 'report_done')).toHaveLength(1);
  });

  it('never runs a session in two workers at once', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => submit(db)));
    const llmA = new RuleLlm({ delayMs: 20 });
    const llmB = new RuleLlm({ delayMs: 20 });
    const a = worker(db, llmA, 'wa');
    const b = worker(db, llmB, 'wb');
    for (const id of ids) await waitFor(finished(id));
    await Promise.all([a.stop(), b.stop()]);
    const plansBy = (llm: RuleLlm) =>
      llm.calls.filter((c) => c.purpose === 'plan').map((c) => c.messages[1]!.content);
    // Every session is planned exactly once, by one of the two workers.
    expect(plansBy(llmA).length + plansBy(llmB).length).toBe(6);
    const { rows } = await db.pool.query('SELECT status, attempts FROM sessions WHERE id = ANY($1)', [ids]);
    expect(rows).toEqual(Array(6).fill({ status: 'done', attempts: 1 }));
    expect(llmA.calls.length).toBeGreaterThan(0);
    expect(llmB.calls.length).toBeGreaterThan(0);
  });

  it('hands a session back when draining, and another worker finishes it without repeating events', async () => {
    const id = await submit(db);
    const a = worker(db, new RuleLlm({ delayMs: 150, rounds: 3 }), 'drain-a');
    await waitFor(async () => (await agentsState(store, id))?.cycle === 1);
    const stopping = Date.now();
    await a.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
    const handed = await store.get(id);
    expect(handed!.status).toBe('running');
    const { rows } = await db.pool.query('SELECT lease_owner FROM sessions WHERE id = $1', [id]);
    expect(rows[0].lease_owner).toBeNull();

    const b = worker(db, new RuleLlm({ rounds: 3 }), 'drain-b');
    const row = await waitFor(finished(id));
    await b.stop();
    expect(row.status).toBe('done');
    const events = (await store.listEvents(id)).map((e) => e.event);
    expect(events.map((_, i) => i + 1)).toEqual((await store.listEvents(id)).map((e) => e.seq));
    const started = events.filter((e) => e.type === 'agent_started').map((e) => (e as { task: string }).task);
    expect(started).toEqual(['Topic 1', 'Topic 2', 'Topic 3']);
    expect(row.report!.sources).toHaveLength(3);
  });

  it('notices a cancel request at the next heartbeat and keeps what was found', async () => {
    const id = await submit(db);
    const w = worker(db, new RuleLlm({ delayMs: 150, rounds: 5 }), 'cancel-w');
    await waitFor(async () => (await agentsState(store, id))?.cycle === 1);
    expect(await new SessionLifecycle(db.pool, 24).cancels.request(id, 'U123')).toBe(true);
    const row = await waitFor(finished(id), 3000);
    await w.stop();
    expect(row.status).toBe('cancelled');
    expect(row.report!.markdown).toContain('Finding from Topic 1');
  });

  it('stops a cancelled session as soon as the request is made, long before its next heartbeat', async () => {
    const id = await submit(db);
    const w = worker(db, new RuleLlm({ delayMs: 150, rounds: 5 }), 'listening-w', testSettings(), {
      heartbeatMs: 600_000,
      cancelsFrom: db.url,
    });
    await waitFor(async () => (await agentsState(store, id))?.cycle === 1);
    const started = Date.now();
    expect(await new SessionLifecycle(db.pool, 24).cancels.request(id, 'U123')).toBe(true);
    const row = await waitFor(finished(id), 15_000);
    const latencyMs = Date.now() - started;
    await w.stop();
    expect(row.status).toBe('cancelled');
    // The target is well under a second; the bound is generous for a busy machine (the heartbeat is 10 minutes).
    expect(latencyMs).toBeLessThan(10_000);
  });

  it('stops writing when another worker has taken the session over', async () => {
    const id = await submit(db);
    const w = worker(db, new RuleLlm({ delayMs: 150, rounds: 5 }), 'zombie');
    await waitFor(async () => (await agentsState(store, id))?.cycle === 1);
    await db.pool.query("UPDATE sessions SET lease_owner = 'usurper' WHERE id = $1", [id]);
    await waitFor(async () => w.running().length === 0, 3000);
    await w.stop();
    const { rows } = await db.pool.query('SELECT status, lease_owner FROM sessions WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'running', lease_owner: 'usurper' });
    expect((await agentsState(store, id))!.cycle).toBeLessThanOrEqual(2);
  });
});

describe('worker on the embedded database', () => {
  it('stops a session cancelled in the same process at once (the embedded socket passes no notifications)', async () => {
    const lite = await embeddedPglite();
    try {
      const liteStore = new SessionStore(lite.pool);
      const lifecycle = new SessionLifecycle(lite.pool, 24);
      const id = await submit(lite);
      const w = worker(
        lite,
        new RuleLlm({ delayMs: 150, rounds: 5 }),
        'lite-cancel',
        testSettings(),
        {
          heartbeatMs: 600_000,
          cancelsFrom: lite.url,
        },
        lifecycle,
      );
      await waitFor(async () => (await agentsState(liteStore, id))?.cycle === 1);
      expect(await lifecycle.cancels.request(id, 'U123')).toBe(true);
      const row = await waitFor(
        async () => ((await liteStore.get(id))?.status === 'cancelled' ? liteStore.get(id) : null),
        15_000,
      );
      await w.stop();
      expect(row?.status).toBe('cancelled');
    } finally {
      await lite.close();
      lite.cleanup();
    }
  });

  it('runs a queued session to its report on PGlite', async () => {
    const lite = await embeddedPglite();
    try {
      const liteStore = new SessionStore(lite.pool);
      const id = await submit(lite);
      const w = worker(lite, new RuleLlm(), 'lite');
      const row = await waitFor(async () =>
        (await liteStore.get(id))?.status === 'done' ? liteStore.get(id) : null,
      );
      await w.stop();
      expect(row!.report!.sources).toHaveLength(2);
    } finally {
      await lite.close();
      lite.cleanup();
    }
  });
});
