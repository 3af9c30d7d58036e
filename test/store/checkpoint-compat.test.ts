import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { realPostgres } from '../helpers/postgres.js';
import { waitFor, worker } from '../helpers/worker-harness.js';

/** A checkpoint mid-research (after cycle 1 of 3), as the code wrote it before checkpoints named their backend. */
const FIXTURE = join(import.meta.dirname, '../fixtures/checkpoints/research-cycle-1.json');

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(() => db.close());

describe('a checkpoint written by the previous version', () => {
  it('resumes after the upgrade, is read as the agents backend, and finishes with its report', async () => {
    const stored = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    expect(stored.backend).toBeUndefined();
    const id = randomUUID();
    // Only the identity and the clock change: the time budget counts from when research began.
    const state = { ...stored, sessionId: id, startedAt: Date.now() };
    await db.pool.query(
      `INSERT INTO sessions (id, origin, requester, question, status, queued_at)
       VALUES ($1, 'cli', 'ann', 'What about topics?', 'queued', now())`,
      [id],
    );
    await db.pool.query(`INSERT INTO checkpoints (session_id, phase, cycle, state) VALUES ($1, $2, $3, $4)`, [
      id,
      state.phase,
      state.cycle,
      JSON.stringify(state),
    ]);
    const store = new SessionStore(db.pool);
    expect((await store.loadCheckpoint(id))!.backend).toBe('agents');
    const w = worker(db, new RuleLlm({ rounds: 3 }), 'compat');
    try {
      const done = await waitFor(async () => {
        const row = await store.get(id);
        return row?.status === 'done' ? row : undefined;
      });
      // Cycle 1's source is kept and numbered first; cycles 2 and 3 add theirs.
      expect(done.report!.sources.map((s) => s.title)).toEqual(['Topic 1', 'Topic 2', 'Topic 3']);
      expect(done.report!.partial).toBeNull();
    } finally {
      await w.stop();
    }
  });
});
