import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession } from '../../src/engine/run-session.js';
import { type Admission, type AdmissionRules, SessionAdmission } from '../../src/sessions/admission.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SpendStore } from '../../src/sessions/records/spend-store.js';
import type { Database } from '../../src/store/database.js';
import { embeddedPglite, realPostgres } from '../helpers/postgres.js';

describe.each([
  ['real Postgres', realPostgres],
  ['embedded PGlite', embeddedPglite],
])('admission on %s', (_name, open) => {
  let db: Database;
  let admission: SessionAdmission;

  beforeAll(async () => {
    db = await open();
    admission = new SessionAdmission(db.pool, 24);
  });
  afterAll(async () => {
    await db.close();
    (db as { cleanup?: () => void }).cleanup?.();
  });

  const ask = (requester: string, teamId: string, rules: AdmissionRules, thread?: string) => {
    const id = randomUUID();
    return admission.admitQueued(
      {
        id,
        origin: 'slack',
        teamId,
        channelId: thread ? 'C1' : `C-${id}`,
        threadTs: thread ?? id,
        requester,
        question: 'Why?',
      },
      newSession(id, { question: 'Why?' }),
      {},
      rules,
    );
  };
  const admitted = (all: Admission[]) => all.filter((a) => a.admitted);

  it('admits no more than the per-person limit out of 50 requests at once', async () => {
    const rules = { perUser: 2, caps: {}, costUsd: null };
    const all = await Promise.all(Array.from({ length: 50 }, () => ask('UONE', 'T-limit', rules)));
    expect(admitted(all)).toHaveLength(2);
    expect(all.find((a) => !a.admitted)).toEqual({
      admitted: false,
      refusal: { kind: 'too_many', active: 2, limit: 2 },
    });
  });

  it('shares a workspace cap among 20 people asking at once: reservations count, the rest is refused', async () => {
    const rules = { perUser: 3, caps: { workspaceDailyUsd: 6 }, costUsd: [0.4, 1] as [number, number] };
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(`U${i}`, 'T-cap', rules)));
    expect(admitted(all)).toHaveLength(6);
    expect(admitted(all).every((a) => a.admitted && a.reservedUsd === 1)).toBe(true);
    const refused = all.find((a) => !a.admitted);
    expect(refused).toMatchObject({ refusal: { kind: 'spend_cap' } });
    expect(
      refused && !refused.admitted && refused.refusal.kind === 'spend_cap' && refused.refusal.sentence,
    ).toBe(
      'This workspace has used $0.00 (and research still running holds $6.00) of the $6.00 research budget for today, and a research costs at least about $0.40; try again tomorrow (UTC), or ask an admin to raise WORKSPACE_DAILY_BUDGET_USD.',
    );
    expect((await new SpendStore(db.pool).since({ teamId: 'T-cap' }, 'day')).reservedUsd).toBe(6);
  });

  it("reserves what is left when that is less than the estimate's high end, and one person's cap holds too", async () => {
    const rules = { perUser: 20, caps: { userDailyUsd: 2.5 }, costUsd: [0.4, 1] as [number, number] };
    const all = await Promise.all(Array.from({ length: 20 }, () => ask('UMANY', 'T-user', rules)));
    expect(
      admitted(all)
        .map((a) => a.admitted && a.reservedUsd)
        .sort(),
    ).toEqual([0.5, 1, 1]);
  });

  it('a finished session counts at its real cost instead of its reservation', async () => {
    const rules = { perUser: 5, caps: { userDailyUsd: 3 }, costUsd: [0.4, 1] as [number, number] };
    const first = await ask('UDONE', 'T-done', rules);
    expect(first.admitted).toBe(true);
    const spend = new SpendStore(db.pool);
    expect(await spend.since({ requester: 'UDONE' }, 'day')).toMatchObject({ costUsd: 0, reservedUsd: 1 });
    const { rows } = await db.pool.query(`SELECT id FROM sessions WHERE requester = 'UDONE'`);
    await db.pool.query(`UPDATE sessions SET lease_owner = 'w' WHERE id = $1`, [rows[0].id]);
    const lifecycle = new SessionLifecycle(db.pool, 24);
    await lifecycle.begin(rows[0].id, 'w');
    await lifecycle.finish(rows[0].id, 'failed', { error: 'x', costUsd: 0.25 }, 'w');
    expect(await spend.since({ requester: 'UDONE' }, 'day')).toMatchObject({
      sessions: 1,
      costUsd: 0.25,
      reservedUsd: 0,
    });
  });

  it('takes one research per thread when many mentions arrive at once, and says it is under way', async () => {
    const rules = { perUser: 50, caps: {}, costUsd: null };
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask(`UT${i}`, 'T-thread', rules, '17.1')),
    );
    expect(admitted(all)).toHaveLength(1);
    expect(all.filter((a) => !a.admitted).every((a) => !a.admitted && a.refusal.kind === 'thread_busy')).toBe(
      true,
    );
  });

  it('says whether a busy thread has research under way or a report still being delivered', async () => {
    const rules = { perUser: 50, caps: {}, costUsd: null };
    expect((await ask('UD1', 'T-deliver', rules, '17.2')).admitted).toBe(true);
    expect(await ask('UD2', 'T-deliver', rules, '17.2')).toEqual({
      admitted: false,
      refusal: { kind: 'thread_busy', delivering: false },
    });
    await db.pool.query(`UPDATE sessions SET status = 'delivering' WHERE team_id = 'T-deliver'`);
    expect(await ask('UD2', 'T-deliver', rules, '17.2')).toEqual({
      admitted: false,
      refusal: { kind: 'thread_busy', delivering: true },
    });
  });
});
