import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskGraphState } from '../../src/backends/deep-research-api/task-state.js';
import type { SessionState } from '../../src/engine/session-state.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { fakeResponsesApi } from '../fakes/fake-responses-api.js';
import { submitDeepResearch } from '../helpers/deep-research-harness.js';
import { realPostgres } from '../helpers/postgres.js';
import { spawnWorker, waitFor } from '../helpers/worker-harness.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/deep-research-worker.ts');
let db: Database;
let store: SessionStore;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await realPostgres();
  store = new SessionStore(db.pool);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db.close();
});

async function startWorkerProcess(owner: string, responsesUrl: string): Promise<ChildProcess> {
  return spawnWorker(FIXTURE, [db.url, owner, responsesUrl], children);
}

describe('the deep-research backend across a crash', () => {
  it('re-attaches to the requests in progress after its worker is SIGKILLed: no second create, one report', async () => {
    let release = false;
    const fake = await fakeResponsesApi((body) => ({
      get hang() {
        return !release;
      },
      searches: [`search for ${body.metadata.task_id}`],
      answer: `Finding about ${body.metadata.task_id} {{https://${body.metadata.task_id}.example/page|${body.metadata.task_id}}}.`,
    }));
    try {
      const id = await submitDeepResearch(db);
      const first = await startWorkerProcess('killed', fake.baseUrl);
      // Two tasks (a and b) run at once; c waits for a.
      await waitFor(async () => {
        const state = (await store.loadCheckpoint(id)) as SessionState | null;
        return (
          (state?.backendState as TaskGraphState | undefined)?.tasks?.filter(
            (t) => t.status === 'running' && t.responseId,
          ).length === 2
        );
      }, 30_000);
      first.kill('SIGKILL');
      await once(first, 'exit');
      expect(fake.calls.creates.map((c) => c.metadata.task_id).sort()).toEqual(['a', 'b']);

      release = true;
      const second = await startWorkerProcess('survivor', fake.baseUrl);
      const done = await waitFor(async () => {
        const row = await store.get(id);
        return row?.status === 'done' ? row : null;
      }, 60_000);
      // a and b were re-attached to, not created again; c was created once, after a finished.
      expect(fake.calls.creates.map((c) => c.metadata.task_id).sort()).toEqual(['a', 'b', 'c']);
      expect(fake.calls.cancels).toEqual([]);
      const events = await store.listEvents(id);
      expect(events.filter((e) => e.event.type === 'report_done')).toHaveLength(1);
      // Each task's one hosted search is kept with the session's usage.
      expect((await store.loadUsage(id)).hostedSearches).toBe(3);
      expect(done.report!.sources.map((s) => s.url).sort()).toEqual([
        'https://a.example/page',
        'https://b.example/page',
        'https://c.example/page',
      ]);
      second.kill('SIGTERM');
      await once(second, 'exit');
    } finally {
      await fake.close();
    }
  }, 120_000);
});
