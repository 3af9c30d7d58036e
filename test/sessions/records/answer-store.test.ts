import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addModelUsage, emptyUsage } from '../../../src/ports/usage.js';
import { AnswerStore } from '../../../src/sessions/records/answer-store.js';
import { insertRunning } from '../../../src/sessions/records/insert-session.js';
import { SpendStore } from '../../../src/sessions/records/spend-store.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(async () => db.close());

describe('answers to questions about a report', () => {
  it('are kept with the session, listed in order, and count in the asker’s and the workspace’s spending', async () => {
    const id = randomUUID();
    await insertRunning(
      db.pool,
      { id, origin: 'cli', requester: 'ann', question: 'Tides?' },
      { backend: 'agents', sessionId: id },
    );
    const answers = new AnswerStore(db.pool, 24);
    const usage = emptyUsage();
    addModelUsage(usage, 'report_question', 'm', { inputTokens: 900, outputTokens: 100 });
    const base = { sessionId: id, asker: 'UBOB', teamId: 'T7', usage, costUsd: 0.02 };
    await answers.save({ ...base, question: 'When?', answer: 'At full moon [1].', sources: [] });
    await answers.save({ ...base, question: 'Price of tea?', answer: null, sources: [] });
    expect((await answers.list(id)).map((a) => [a.asker, a.question, a.answer])).toEqual([
      ['UBOB', 'When?', 'At full moon [1].'],
      ['UBOB', 'Price of tea?', null],
    ]);
    const spend = new SpendStore(db.pool);
    const bob = await spend.since({ requester: 'UBOB', teamId: 'T7' }, 'day');
    expect([bob.costUsd, bob.tokens]).toEqual([0.04, 2000]);
    expect((await spend.since({ teamId: 'T7' }, 'day')).costUsd).toBeCloseTo(0.04);
    expect((await spend.since({ requester: 'UCAT', teamId: 'T7' }, 'day')).costUsd).toBe(0);
  });
});
