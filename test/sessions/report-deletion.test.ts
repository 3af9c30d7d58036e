import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession } from '../../src/engine/run-session.js';
import { silentLogger } from '../../src/ports/logger.js';
import { AnswerStore } from '../../src/sessions/records/answer-store.js';
import { AuditStore } from '../../src/sessions/records/audit-store.js';
import { OutboxStore } from '../../src/sessions/records/outbox-store.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import { SpendStore } from '../../src/sessions/records/spend-store.js';
import { ReportLibrary } from '../../src/sessions/report-library.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';
import { testDeletion, testRetention } from '../helpers/session-room.js';
import { insertSession } from '../helpers/sessions.js';

const report = {
  markdown: '# Tides\n\nSpring tides come at new and full moon [1].',
  sources: [{ n: 1, url: 'https://tides.example/spring', title: 'Spring tides' }],
  costUsd: 0.42,
};
const admin = { id: 'UADMIN', isAdmin: async () => true };
const person = (id: string) => ({ id, isAdmin: async () => false });

describe('deleting a report (real Postgres)', () => {
  let db: Database;
  let sessions: SessionStore;

  beforeAll(async () => {
    db = await realPostgres();
    sessions = new SessionStore(db.pool);
  });
  afterAll(() => db.close());

  /** A finished Slack report with its thread, canvas, file, a question asked of it and a kept source. */
  async function finished(requester = 'UANN', channel = 'C1') {
    const id = await insertSession(db.pool, {
      origin: 'slack',
      requester,
      status: 'done',
      channelId: channel,
      teamId: 'T1',
      threadTs: '1700.1',
      question: 'How do tides work?',
    });
    await db.pool.query('UPDATE sessions SET report = $2 WHERE id = $1', [id, report]);
    await db.pool.query('INSERT INTO checkpoints (session_id, state) VALUES ($1, $2)', [
      id,
      newSession(id, { question: 'How do tides work?' }),
    ]);
    for (const [role, ts, file] of [
      ['root', '1700.1', null],
      ['plan', '1700.2', null],
      ['summary', '1700.3', null],
      ['canvas', null, 'FCANVAS'],
      ['file', null, 'FREPORT'],
      ['report:0', '1700.4', null],
    ])
      await db.pool.query(
        'INSERT INTO slack_messages (session_id, role, channel_id, ts, file_id) VALUES ($1, $2, $3, $4, $5)',
        [id, role, role === 'report:0' ? 'DANN' : channel, ts, file],
      );
    await new AnswerStore(db.pool, 24).save(
      {
        sessionId: id,
        asker: 'UBOB',
        teamId: 'T1',
        question: 'When?',
        answer: 'At full moon [1].',
        sources: [],
        usage: { models: [{ model: 'gpt-4.1', inputTokens: 10, outputTokens: 5 }] } as never,
        costUsd: 0.05,
      },
      () => [],
    );
    return id;
  }

  it('takes the content at once, keeps what it cost, and records the removals from Slack', async () => {
    const id = await finished();
    const spentBefore = await new SpendStore(db.pool).since({ teamId: 'T1' }, 'day');
    expect(await testDeletion(db).delete(id, person('UBOB'))).toMatchObject({ kind: 'not_yours' });
    expect((await testDeletion(db).delete(id, person('UANN'))).kind).toBe('deleted');

    const row = await sessions.get(id);
    expect(row).toMatchObject({ question: '', report: null, plan: null, deleted: { by: 'UANN' } });
    for (const table of ['checkpoints', 'report_answers', 'session_events', 'session_sources'])
      expect((await db.pool.query(`SELECT 1 FROM ${table} WHERE session_id = $1`, [id])).rowCount).toBe(0);
    // The money was spent: the caps still count it (the report's and the question's).
    const spentAfter = await new SpendStore(db.pool).since({ teamId: 'T1' }, 'day');
    expect(spentAfter.costUsd).toBeCloseTo(spentBefore.costUsd, 6);

    const outbox = (await new OutboxStore(db.pool, 24).forSession(id)).map((o) => [
      o.op,
      o.role,
      o.channelId,
      o.payload,
    ]);
    expect(outbox).toEqual(
      expect.arrayContaining([
        ['delete', 'plan', 'C1', { ts: '1700.2' }],
        ['delete', 'summary', 'C1', { ts: '1700.3' }],
        ['delete', 'canvas', 'C1', { canvas: 'FCANVAS' }],
        ['delete', 'file', 'C1', { file: 'FREPORT' }],
        // A copy delivered by DM goes from the DM.
        ['delete', 'report:0', 'DANN', { ts: '1700.4' }],
        ['update', 'root', 'C1', expect.objectContaining({ ts: '1700.1' })],
      ]),
    );
    expect(JSON.stringify(outbox.find((o) => o[1] === 'root'))).toContain(
      'This research was deleted by <@UANN>.',
    );
    // Gone from what people find; deleting again changes nothing.
    const library = new ReportLibrary({ db: db.pool, log: silentLogger });
    expect(
      (await library.page('tides', { userId: 'UANN', teamId: 'T1' }, async () => true, 0, 10)).reports.map(
        (r) => r.id,
      ),
    ).not.toContain(id);
    expect((await testDeletion(db).delete(id, admin)).kind).toBe('already');
    const audit = await new AuditStore(db.pool).list({ channelId: 'C1' });
    expect(audit.filter((a) => a.action === 'session.deleted').map((a) => [a.actor, a.detail.as])).toEqual([
      ['UANN', 'requester'],
    ]);
  });

  it('removes in turn a write that was on its way to Slack when the report was deleted', async () => {
    const id = await finished('ULATE', 'C5');
    const outbox = new OutboxStore(db.pool, 24);
    await outbox.add(id, [
      {
        key: 'post:answer:9',
        op: 'post',
        role: 'answer:9',
        channelId: 'C5',
        threadTs: '1700.1',
        payload: {},
      },
      {
        key: 'post:answer:10',
        op: 'post',
        role: 'answer:10',
        channelId: 'C5',
        threadTs: '1700.1',
        payload: {},
      },
    ]);
    const [onItsWay] = await outbox.forSession(id);
    expect(await outbox.claim(onItsWay!.id, 'worker-1', 60_000)).not.toBeNull();
    expect((await testDeletion(db).delete(id, person('ULATE'))).kind).toBe('deleted');
    // The write not yet taken is gone; the one on its way stays, and when it lands it is removed.
    const left = await outbox.forSession(id);
    expect(left.map((o) => o.key)).toContain('post:answer:9');
    expect(left.map((o) => o.key)).not.toContain('post:answer:10');
    await outbox.sent(onItsWay!, { channelId: 'C5', ts: '1700.9' });
    const late = (await outbox.forSession(id)).find((o) => o.key === 'erase:late:answer:9');
    expect(late).toMatchObject({
      op: 'delete',
      channelId: 'C5',
      payload: { ts: '1700.9' },
      state: 'pending',
    });
  });

  it('refuses while research runs, deletes all of a leaver’s for an admin, and retention deletes in Slack too', async () => {
    const running = await insertSession(db.pool, { requester: 'ULEAVER', status: 'running' });
    expect((await testDeletion(db).delete(running, admin)).kind).toBe('unfinished');
    const [a, b] = [await finished('ULEAVER', 'C2'), await finished('ULEAVER', 'C3')];
    expect(await testDeletion(db).deleteAllOf('ULEAVER', person('UANN'))).toBe('not_admin');
    const all = await testDeletion(db).deleteAllOf('ULEAVER', admin);
    expect(all).toMatchObject({ deleted: 2, unfinished: [{ id: running }] });
    for (const id of [a, b]) expect((await sessions.get(id))?.deleted?.by).toBe('UADMIN');

    const old = await finished('UOLD', 'C4');
    await db.pool.query("UPDATE sessions SET created_at = now() - interval '100 days' WHERE id = $1", [old]);
    expect(await testRetention(db, 90)).toBe(1);
    // Its row stays until Slack has been told, then goes.
    expect((await sessions.get(old))?.deleted?.by).toBe('retention');
    await db.pool.query(`UPDATE slack_outbox SET state = 'sent' WHERE session_id = $1`, [old]);
    await testRetention(db, 90);
    expect(await sessions.get(old)).toBeNull();
  });
});
