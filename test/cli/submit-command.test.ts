import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitCommand } from '../../src/cli/submit-command.js';
import type { AdmissionRules } from '../../src/sessions/admission.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';
import { testService } from '../helpers/session-room.js';
import { waitFor, worker } from '../helpers/worker-harness.js';

let db: Database;
let store: SessionStore;
beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(() => db.close());

describe('deep-research ask --background', () => {
  const deps = (requester: string, ids: string[], rules?: () => Promise<AdmissionRules>) => ({
    sessions: store,
    service: testService(db, { newSessionId: () => ids.shift()!, rules }),
    requester,
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

  it('refuses what Slack refuses, with the same sentence: an overlong question and a research the caps would not cover', async () => {
    const long = io();
    expect(await submitCommand(deps('erin', [randomUUID()]), 'x'.repeat(2001), long)).toBe(2);
    expect(long.err.text).toBe(
      'error: Your question is 2,001 characters long; the limit is 2,000. Shorten it, and add details when I ask my clarifying questions.\n',
    );
    const capped = io();
    const rules = async () => ({
      perUser: 2,
      caps: { userDailyUsd: 0.5 },
      costUsd: [1, 2] as [number, number],
    });
    expect(await submitCommand(deps('erin', [randomUUID()], rules), 'A question?', capped)).toBe(1);
    expect(capped.err.text).toBe(
      'error: You have used $0.00 of the $0.50 research budget for today, and a research costs at least about $1.00; try again tomorrow (UTC), or ask an admin to raise USER_DAILY_BUDGET_USD.\n',
    );
    expect((await store.listRecent({ requester: 'erin', limit: 5 })).length).toBe(0);
  });
});
