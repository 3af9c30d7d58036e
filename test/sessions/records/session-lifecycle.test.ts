import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '../../../src/jobs/maintenance.js';
import { silentLogger } from '../../../src/ports/logger.js';
import { LeaseLostError } from '../../../src/sessions/records/lease-lost-error.js';
import { OutboxStore } from '../../../src/sessions/records/outbox-store.js';
import { SessionLifecycle } from '../../../src/sessions/records/session-lifecycle.js';
import { type SessionStatus, TRANSITIONS } from '../../../src/sessions/records/session-status.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';
import { testDeletion } from '../../helpers/session-room.js';
import { insertSession } from '../../helpers/sessions.js';

let db: Database;
let store: SessionStore;
let lifecycle: SessionLifecycle;
let outbox: OutboxStore;
beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
  lifecycle = new SessionLifecycle(db.pool, 24);
  outbox = new OutboxStore(db.pool, 24);
});
afterAll(() => db.close());

const intent = (key: string, essential = false) => ({
  key,
  op: 'post' as const,
  role: key.replace(/^post:/, ''),
  channelId: 'C1',
  threadTs: '1.0',
  payload: { message: { text: key, blocks: [] } },
  essential,
});
const statusOf = async (id: string) => (await store.get(id))!.status;

describe('the session lifecycle', () => {
  it('allows exactly the moves in its table and refuses the rest', async () => {
    const statuses = Object.keys(TRANSITIONS) as SessionStatus[];
    for (const from of statuses) {
      for (const to of ['delivering', 'done', 'failed', 'cancelled'] as const) {
        const id = await insertSession(db.pool, { status: from });
        const move = lifecycle.finish(id, to, {}, undefined);
        if (TRANSITIONS[from].includes(to)) {
          await move;
          expect(await statusOf(id)).toBe(to);
        } else if (from !== to) {
          await expect(move).rejects.toThrow(`cannot move from ${from} to ${to}`);
          expect(await statusOf(id)).toBe(from);
        }
      }
    }
  });

  it('writes a worker’s move only while it holds the lease', async () => {
    const id = await insertSession(db.pool, { status: 'running' });
    await db.pool.query("UPDATE sessions SET lease_owner = 'other' WHERE id = $1", [id]);
    await expect(
      lifecycle.finish(id, 'delivering', {}, 'me', [intent('post:report:0', true)]),
    ).rejects.toThrow(LeaseLostError);
    expect(await statusOf(id)).toBe('running');
    expect(await outbox.forSession(id)).toEqual([]);
  });

  it('records a report with its Slack writes in one move, and is done only once they are delivered', async () => {
    const id = await insertSession(db.pool, { origin: 'slack', status: 'reporting' });
    await lifecycle.finish(id, 'delivering', { report: undefined }, undefined, [
      intent('post:report:0', true),
      intent('post:sources:0', true),
    ]);
    expect(await statusOf(id)).toBe('delivering');
    const [report, sources] = await outbox.forSession(id);
    expect(await lifecycle.settleDelivery(id)).toBeNull();
    await outbox.sent(report!, { channelId: 'C1', ts: '1.1' });
    expect(await lifecycle.settleDelivery(id)).toBeNull();
    await outbox.sent(sources!, { channelId: 'C1', ts: '1.2' });
    expect(await lifecycle.settleDelivery(id)).toBe('done');
    expect((await store.slackMessages(id)).get('report:0')).toMatchObject({ ts: '1.1' });
  });

  it('is undeliverable when an essential write failed and no DM copy made it, with the reason', async () => {
    const id = await insertSession(db.pool, { origin: 'slack', status: 'reporting' });
    await lifecycle.finish(id, 'delivering', {}, undefined, [
      intent('post:report:0', true),
      intent('post:plan'),
    ]);
    const [report, plan] = await outbox.forSession(id);
    await outbox.failed(plan!.id, 'msg_too_long');
    await outbox.failed(report!.id, 'is_archived');
    await outbox.add(id, [{ ...intent('post:report:0', true), key: 'dm:post:report:0', channelId: 'dm' }]);
    expect(await lifecycle.settleDelivery(id)).toBeNull();
    const [dm] = (await outbox.forSession(id)).slice(-1);
    await outbox.failed(dm!.id, 'user_not_found');
    expect(await lifecycle.settleDelivery(id)).toBe('undeliverable');
    expect((await store.get(id))!.deliveryNote).toBe('Slack did not take the report: user_not_found');
  });

  it('counts research in progress per person, cancels it once, and never cancels a finished one', async () => {
    const requester = `u-${randomUUID()}`;
    const live = await insertSession(db.pool, { requester, status: 'clarifying' });
    const delivering = await insertSession(db.pool, { requester, status: 'delivering' });
    await insertSession(db.pool, { requester, status: 'done' });
    expect(await store.activeSessions(requester)).toHaveLength(1);
    expect(await lifecycle.cancels.request(delivering, 'U1')).toBe(false);
    expect(await lifecycle.cancels.request(live, 'U1')).toBe(true);
    expect(await lifecycle.cancels.request(live, 'U1')).toBe(false);
  });

  it('expires clarifications nobody answered in time', async () => {
    const stale = await insertSession(db.pool, { status: 'clarifying' });
    const fresh = await insertSession(db.pool, { status: 'clarifying' });
    await db.pool.query("UPDATE sessions SET updated_at = now() - interval '25 hours' WHERE id = $1", [
      stale,
    ]);
    await runMaintenance(
      { db, sessions: store, lifecycle },
      { clarifyTimeoutHours: 24, retentionDays: 90 },
      silentLogger,
      testDeletion(db),
    );
    expect(await statusOf(stale)).toBe('expired');
    expect(await statusOf(fresh)).toBe('clarifying');
  });
});
