import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedbackStore } from '../../../src/sessions/records/feedback-store.js';
import { SessionLifecycle } from '../../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import type { Database } from '../../../src/store/database.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, run, testSettings } from '../../helpers/engine-harness.js';
import { embeddedPglite, realPostgres } from '../../helpers/postgres.js';
import { corpusTools, standardScript } from '../../helpers/scenario.js';
import { testRetention } from '../../helpers/session-room.js';
import { insertSession, type TestSession } from '../../helpers/sessions.js';

describe.each([
  ['real Postgres', realPostgres],
  ['embedded PGlite', embeddedPglite],
])('SessionStore on %s', (_name, open) => {
  let db: Database;
  let store: SessionStore;

  beforeAll(async () => {
    db = await open();
    store = new SessionStore(db.pool);
  });
  afterAll(async () => {
    await db.close();
    (db as { cleanup?: () => void }).cleanup?.();
  });

  const newSession = async (overrides: TestSession = {}) =>
    (await store.get(await insertSession(db.pool, overrides)))!;

  it('creates, reads, lists and finds sessions by id prefix', async () => {
    const a = await newSession({ requester: 'bob' });
    const b = await newSession({ requester: 'bob', question: 'How?' });
    await newSession({ requester: 'carol' });
    expect(await store.get(a.id)).toMatchObject({
      id: a.id,
      requester: 'bob',
      status: 'running',
      turn: 1,
      report: null,
    });
    expect((await store.listRecent({ requester: 'bob', limit: 10 })).map((s) => s.id)).toEqual([b.id, a.id]);
    expect((await store.findByIdPrefix(a.id.slice(0, 8))).map((s) => s.id)).toContain(a.id);
    expect(await store.findByIdPrefix("'; drop table sessions; --")).toEqual([]);
  });

  it('takes feedback only on a session with a report, clicked where one of its messages is', async () => {
    const feedback = new FeedbackStore(db.pool);
    const reviewing = await newSession({ status: 'reviewing', channelId: 'C1' });
    await store.recordSlackMessage(reviewing.id, 'plan', { channelId: 'C1', ts: '1.1' });
    expect(await feedback.save(reviewing.id, 'UEVE', 'bad', 'C1')).toBe(false);
    const done = await newSession({ status: 'done', channelId: 'C1' });
    await db.pool.query(`UPDATE sessions SET report = '{"markdown":"x","sources":[]}' WHERE id = $1`, [
      done.id,
    ]);
    await store.recordSlackMessage(done.id, 'summary', { channelId: 'C1', ts: '1.2' });
    expect(await feedback.save(done.id, 'UEVE', 'good', 'C2')).toBe(false);
    expect(await feedback.save(done.id, 'UEVE', 'good', 'C1')).toBe(true);
    expect((await feedback.list(done.id)).map((f) => f.value)).toEqual(['good']);
    // Two clicks handled out of order: the later click counts.
    const later = new Date(Date.now() + 60_000);
    expect(await feedback.save(done.id, 'UEVE', 'bad', 'C1', later)).toBe(true);
    expect(await feedback.save(done.id, 'UEVE', 'good', 'C1', new Date(later.getTime() - 1))).toBe(true);
    expect((await feedback.list(done.id)).map((f) => f.value)).toEqual(['bad']);
  });

  it('refuses a second session for the same thread turn', async () => {
    const thread = { origin: 'slack' as const, teamId: 'T1', channelId: 'C1', threadTs: '1700000000.000100' };
    await newSession(thread);
    await expect(newSession(thread)).rejects.toThrow(/duplicate key/);
    expect(await newSession({ ...thread, turn: 2 })).toMatchObject({ turn: 2 });
  });

  it('round-trips a real engine checkpoint and report, and records status, events and usage', async () => {
    const llm = new ScriptedLlm(standardScript());
    const h = harness(llm, corpusTools());
    const outcome = await run(h, testSettings(), { question: 'Heat pumps?' });
    if (outcome.kind !== 'done') throw new Error('expected a report');
    const row = await newSession();
    const state = { ...outcome.state, sessionId: row.id };
    // An earlier checkpoint is replaced by the later one.
    await store.saveCheckpoint({ ...h.checkpoints[1]!, sessionId: row.id });
    await store.saveCheckpoint(state);
    expect(await store.loadCheckpoint(row.id)).toEqual(state);

    await store.appendEvents(row.id, h.events.slice(0, 3));
    await store.appendEvents(row.id, h.events.slice(3, 5));
    expect((await store.listEvents(row.id)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect((await store.listEvents(row.id)).map((e) => e.event)).toEqual(h.events.slice(0, 5));

    await new SessionLifecycle(db.pool, 24).finish(
      row.id,
      'done',
      { plan: state.plan!, report: outcome.report },
      undefined,
    );
    const done = await store.get(row.id);
    expect(done).toMatchObject({
      status: 'done',
      plan: state.plan,
      report: JSON.parse(JSON.stringify(outcome.report)),
    });
    expect(done!.finishedAt).toBeInstanceOf(Date);

    await store.saveUsage(row.id, state.usage);
    const { rows } = await db.pool.query(
      'SELECT purpose, calls FROM session_usage WHERE session_id = $1 ORDER BY purpose',
      [row.id],
    );
    expect(rows).toContainEqual({ purpose: 'orchestrator', calls: 3 });
  });

  it('remembers the Slack messages a session owns', async () => {
    const row = await newSession();
    await store.recordSlackMessage(row.id, 'progress', { channelId: 'C1', ts: '1.1' });
    await store.recordSlackMessage(row.id, 'plan', { channelId: 'C1', ts: '1.2' });
    await store.recordSlackMessage(row.id, 'progress', { channelId: 'C1', ts: '1.3' });
    await store.recordSlackMessage(row.id, 'file', { channelId: 'C1', fileId: 'F1' });
    expect(await store.slackMessages(row.id)).toEqual(
      new Map([
        ['progress', { channelId: 'C1', ts: '1.3', fileId: undefined }],
        ['plan', { channelId: 'C1', ts: '1.2', fileId: undefined }],
        ['file', { channelId: 'C1', ts: undefined, fileId: 'F1' }],
      ]),
    );
  });

  it('claims an event key once, purges old keys, and purges old finished sessions', async () => {
    const key = `Ev${randomUUID()}`;
    expect(await store.claimEvent(key)).toBe(true);
    expect(await store.claimEvent(key)).toBe(false);
    await db.pool.query(
      "UPDATE processed_events SET created_at = now() - interval '25 hours' WHERE event_key = $1",
      [key],
    );
    expect(await store.purgeProcessedEvents(24)).toBeGreaterThanOrEqual(1);
    expect(await store.claimEvent(key)).toBe(true);

    const old = await newSession({ status: 'done' });
    const running = await newSession({ status: 'running' });
    await db.pool.query("UPDATE sessions SET created_at = now() - interval '100 days' WHERE id = ANY($1)", [
      [old.id, running.id],
    ]);
    await testRetention(db, 90);
    expect(await store.get(old.id)).toBeNull();
    expect(await store.get(running.id)).not.toBeNull();
  });
});
