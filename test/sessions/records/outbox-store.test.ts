import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxIntent } from '../../../src/sessions/records/outbox-intent.js';
import { OutboxStore } from '../../../src/sessions/records/outbox-store.js';
import { SessionLifecycle } from '../../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import type { Database } from '../../../src/store/database.js';
import { embeddedPglite, realPostgres } from '../../helpers/postgres.js';
import { insertSession } from '../../helpers/sessions.js';

const post = (role: string, essential = false): OutboxIntent => ({
  key: `post:${role}`,
  op: 'post',
  role,
  channelId: 'C1',
  threadTs: '1.0',
  payload: { message: { text: role, blocks: [] } },
  essential,
});
const edit = (role: string, text: string): OutboxIntent => ({
  key: `update:${role}`,
  op: 'update',
  role,
  channelId: 'C1',
  payload: { message: { text, blocks: [] } },
});

describe.each([
  ['real Postgres', realPostgres],
  ['embedded PGlite', embeddedPglite],
])('OutboxStore on %s', (_name, open) => {
  let db: Database;
  let outbox: OutboxStore;
  beforeAll(async () => {
    db = await open();
    outbox = new OutboxStore(db.pool, 24);
  });
  afterAll(async () => {
    await db.close();
    (db as { cleanup?: () => void }).cleanup?.();
  });

  it('offers only the oldest pending write of each session, to one claimant at a time', async () => {
    const a = await insertSession(db.pool, { origin: 'slack' });
    const b = await insertSession(db.pool, { origin: 'slack' });
    await outbox.add(a, [post('plan'), post('progress')]);
    await outbox.add(b, [post('plan')]);
    await outbox.add(a, [post('plan')]); // the same intent again: still one
    const heads = (await outbox.due(10)).filter((r) => r.sessionId === a || r.sessionId === b);
    expect(heads.map((r) => [r.sessionId, r.role])).toEqual([
      [a, 'plan'],
      [b, 'plan'],
    ]);
    const head = heads[0]!;
    expect(await outbox.claim(head.id, 'p1', 30_000)).toEqual({ wasUncertain: false });
    expect(await outbox.claim(head.id, 'p2', 30_000)).toBeNull();
    // From its claim on, a post's outcome is unknown until Slack answers.
    expect((await outbox.forSession(a))[0]).toMatchObject({ uncertain: true, attempts: 1 });
    // Claimed and unsent: the session's next write waits behind it.
    expect((await outbox.due(10)).some((r) => r.sessionId === a)).toBe(false);
    await outbox.sent(head, { channelId: 'C1', ts: '1.1' });
    expect((await outbox.due(10)).find((r) => r.sessionId === a)?.role).toBe('progress');
    expect((await new SessionStore(db.pool).slackMessages(a)).get('plan')).toMatchObject({ ts: '1.1' });
  });

  it('lets a newer edit replace one in flight, which then stays pending with the newer content', async () => {
    const id = await insertSession(db.pool, { origin: 'slack' });
    await outbox.add(id, [edit('progress', 'old')]);
    const [row] = await outbox.forSession(id);
    expect(await outbox.claim(row!.id, 'p1', 30_000)).toEqual({ wasUncertain: false });
    await outbox.add(id, [edit('progress', 'new')]);
    await outbox.sent(row!);
    const [after] = await outbox.forSession(id);
    expect(after).toMatchObject({ state: 'pending', version: 2, payload: { message: { text: 'new' } } });
    await outbox.sent(after!);
    expect((await outbox.forSession(id))[0]).toMatchObject({ state: 'sent' });
  });

  it('abandons a channel: pending writes there fail, the essential ones come back for the DM', async () => {
    const id = await insertSession(db.pool, { origin: 'slack', status: 'reporting' });
    await new SessionLifecycle(db.pool, 24).finish(id, 'delivering', {}, undefined, [
      post('report:0', true),
      post('sources:0', true),
      edit('progress', 'final'),
    ]);
    const failed = await outbox.abandonChannel(id, 'C1', 'is_archived');
    expect(failed.map((i) => i.key)).toEqual(['post:report:0', 'post:sources:0']);
    expect((await outbox.forSession(id)).map((r) => [r.key, r.lastError])).toEqual([
      ['post:report:0', 'is_archived'],
      ['post:sources:0', 'is_archived'],
      ['update:progress', 'is_archived'],
    ]);
  });
});
