import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditStore, auditTrail } from '../../../src/sessions/records/audit-store.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';

let db: Database;
let audit: AuditStore;
beforeAll(async () => {
  db = await realPostgres();
  audit = new AuditStore(db.pool);
});
afterAll(async () => {
  await db.close();
});

describe('the audit trail', () => {
  it('keeps each action with who, where and its cost, read back oldest first and filtered by time, channel and person', async () => {
    const session = crypto.randomUUID();
    await audit.record({
      actor: 'UANN',
      action: 'session.started',
      teamId: 'T1',
      channelId: 'C1',
      sessionId: session,
    });
    await audit.record({
      actor: 'UBOB',
      action: 'report.asked',
      teamId: 'T1',
      channelId: 'C2',
      sessionId: session,
      costUsd: 0.0123,
      detail: { outcome: 'answered' },
    });
    const all = await audit.list();
    expect(all.slice(-2).map((r) => [r.actor, r.action, r.channelId, r.costUsd, r.detail])).toEqual([
      ['UANN', 'session.started', 'C1', null, {}],
      ['UBOB', 'report.asked', 'C2', 0.0123, { outcome: 'answered' }],
    ]);
    expect((await audit.list({ channelId: 'C2' })).map((r) => r.actor)).toEqual(['UBOB']);
    expect((await audit.list({ actor: 'UANN' })).map((r) => r.action)).toEqual(['session.started']);
    expect(await audit.list({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it('refuses to change a row, and retention removes only rows past their days', async () => {
    await audit.record({ actor: 'UCAT', action: 'schedule.created' });
    await expect(db.pool.query("UPDATE audit_events SET actor = 'someone else'")).rejects.toThrow(
      'the audit trail is append-only',
    );
    await db.pool.query(
      "INSERT INTO audit_events (actor, action, at) VALUES ('UOLD', 'session.started', now() - interval '400 days')",
    );
    expect(await audit.purge(365)).toBe(1);
    expect((await audit.list({ actor: 'UOLD' })).length).toBe(0);
    expect((await audit.list({ actor: 'UCAT' })).length).toBe(1);
  });

  it('never fails the action it records: a trail that cannot be written is logged with the session id', async () => {
    const warned: object[] = [];
    const record = auditTrail(
      { record: () => Promise.reject(new Error('database down')) },
      { warn: (obj) => void warned.push(obj) },
    );
    record({ actor: 'UANN', action: 'session.cancelled', sessionId: 's-1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warned).toMatchObject([{ sessionId: 's-1', action: 'session.cancelled' }]);
  });
});
