import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitCommand } from '../../src/cli/submit-command.js';
import { SessionAdmission } from '../../src/jobs/admission.js';
import type { Database } from '../../src/store/database.js';
import { SessionStore } from '../../src/store/session-store.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';
import { waitFor, worker } from '../helpers/worker-harness.js';

let db: Database;
let store: SessionStore;
beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(() => db.close());

describe('deep-research ask --background', () => {
  const deps = (requester: string, ids: string[]) => ({
    sessions: store,
    admission: new SessionAdmission(db.pool, 24),
    rules: async () => ({ perUser: 2, caps: {}, costUsd: null }),
    newSessionId: () => ids.shift()!,
    requester,
    maxQuestionChars: 2000,
  });

  it('queues the question with its queue position, and a worker researches it', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const a = io();
    expect(await submitCommand(deps('dana', [first]), 'What about topics?', a)).toBe(0);
    expect(a.out.text).toBe(
      `Queued as session ${first} (next in line).\nA running "deep-research worker" will research it; see it with: deep-research sessions show ${first.slice(0, 8)}\n`,
    );
    const b = io();
    await submitCommand(deps('dana', [second]), 'And more topics?', b);
    expect(b.out.text).toContain('(1 ahead of you)');

    const c = io();
    expect(await submitCommand(deps('dana', [randomUUID()]), 'A third?', c)).toBe(1);
    expect(c.err.text).toBe(
      'error: you already have 2 research sessions running (the limit is 2); wait for one to finish or cancel it.\n',
    );

    const w = worker(db, new RuleLlm(), 'bg');
    for (const id of [first, second]) await waitFor(async () => (await store.get(id))?.status === 'done');
    await w.stop();
    expect((await store.get(first))!.report!.sources).toHaveLength(2);
  });
});
