import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalLifecycle } from '../../../src/sessions/records/terminal-lifecycle.js';
import type { Database } from '../../../src/store/database.js';
import { embeddedPglite, realPostgres } from '../../helpers/postgres.js';
import { insertSession, type TestSession } from '../../helpers/sessions.js';

describe.each([
  ['real Postgres', realPostgres],
  ['embedded PGlite', embeddedPglite],
])('TerminalLifecycle on %s', (_name, open) => {
  let db: Database;
  let terminals: TerminalLifecycle;
  beforeAll(async () => {
    db = await open();
    terminals = new TerminalLifecycle(db.pool, 30_000);
  });
  afterAll(async () => {
    await db.close();
    (db as { cleanup?: () => void }).cleanup?.();
  });

  /** A session, with a lease that is live (`live`), lapsed, or none, and queued for workers or not. */
  async function session(s: TestSession, lease: 'live' | 'lapsed' | 'none', queued = false) {
    const id = await insertSession(db.pool, s);
    await db.pool.query(
      `UPDATE sessions SET lease_owner = CASE WHEN $2 = 'none' THEN NULL ELSE 'cli:me' END,
         lease_expires_at = CASE $2 WHEN 'live' THEN now() + interval '1 minute'
                                     WHEN 'lapsed' THEN now() - interval '1 second' END,
         queued_at = CASE WHEN $3 THEN now() END
       WHERE id = $1`,
      [id, lease, queued],
    );
    return id;
  }
  const status = async (id: string) =>
    (await db.pool.query('SELECT status FROM sessions WHERE id = $1', [id])).rows[0].status;

  it("rests only the terminal's own sessions whose process went away", async () => {
    const lapsed = await session({ status: 'running' }, 'lapsed');
    const atPrompt = await session({ status: 'clarifying' }, 'lapsed');
    const old = await session({ status: 'running' }, 'none');
    const live = await session({ status: 'running' }, 'live');
    const queued = await session({ status: 'running' }, 'lapsed', true);
    const slack = await session({ status: 'running', origin: 'slack' }, 'lapsed');
    const done = await session({ status: 'done' }, 'lapsed');
    expect((await terminals.interruptLapsed()).sort()).toEqual([lapsed, atPrompt, old].sort());
    expect(await status(live)).toBe('running');
    // A worker takes these over: they are not interrupted.
    expect(await status(queued)).toBe('running');
    expect(await status(slack)).toBe('running');
    expect(await status(done)).toBe('done');
  });

  it('resumes an interrupted session once, under a new lease, and cancels one', async () => {
    const id = await session({ status: 'interrupted' }, 'none');
    expect(await terminals.resume(id, 'cli:again')).toBe(true);
    expect(await terminals.resume(id, 'cli:other')).toBe(false);
    const { rows } = await db.pool.query(
      'SELECT status, lease_owner, lease_expires_at > now() AS live FROM sessions WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ status: 'running', lease_owner: 'cli:again', live: true });
    expect(await terminals.interrupt(id, 'cli:other')).toBe(false);
    expect(await terminals.interrupt(id, 'cli:again')).toBe(true);
    expect(await terminals.cancelInterrupted(id, 'ann')).toBe(true);
    expect(await terminals.cancelInterrupted(id, 'ann')).toBe(false);
    expect(await status(id)).toBe('cancelled');
  });
});
