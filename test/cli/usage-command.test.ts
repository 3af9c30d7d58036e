import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { FinalReport } from '../../src/engine/session-state.js';
import { runCli } from '../../src/main.js';
import { insertRunning } from '../../src/sessions/records/insert-session.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';

const report = (costUsd: number | null): FinalReport => ({
  markdown: 'x',
  sources: [],
  partial: null,
  durationMs: 1000,
  sourcesSeen: 0,
  costUsd,
});

describe('deep-research usage', () => {
  it("prints the requester's and everyone's finished research today and this month, with the cap", async () => {
    const db = await realPostgres();
    try {
      const lifecycle = new SessionLifecycle(db.pool, 24);
      const sessions = new SessionStore(db.pool);
      const finished = async (id: string, requester: string, cost: number | null, tokens: number) => {
        await insertRunning(
          db.pool,
          { id, origin: 'cli', requester, question: 'q' },
          { backend: 'agents', sessionId: id },
        );
        await lifecycle.finish(id, 'done', { report: report(cost) }, undefined);
        await sessions.saveUsage(id, {
          models: [{ purpose: 'orchestrator', model: 'm', calls: 1, inputTokens: tokens, outputTokens: 0 }],
          webSearches: 0,
          internalSearches: 0,
          pagesRead: 0,
        });
      };
      const me = userInfo().username;
      await finished('00000000-0000-4000-8000-000000000001', me, 0.25, 120_000);
      await finished('00000000-0000-4000-8000-000000000002', 'someone-else', 1.5, 2_400_000);
      const streams = io();
      expect(await runCli(['usage'], { DATABASE_URL: db.url!, USER_DAILY_BUDGET_USD: '2' }, streams)).toBe(0);
      expect(streams.out.text).toBe(
        'Your research: today 1 session, 120k tokens, $0.25 of $2.00 a day; this month 1 session, 120k tokens, $0.25.\n' +
          'This workspace: today 2 sessions, 2.5M tokens, $1.75; this month 2 sessions, 2.5M tokens, $1.75.\n',
      );
      // A session researched with a model that has no price: its report says "cost n/a", and so does usage.
      await finished('00000000-0000-4000-8000-000000000003', 'local-model-user', null, 50_000);
      const unpriced = io();
      expect(await runCli(['usage'], { DATABASE_URL: db.url! }, unpriced)).toBe(0);
      expect(unpriced.out.text).toContain(
        'This workspace: today 3 sessions, 2.6M tokens, $1.75 (cost n/a for 1 of them)',
      );
    } finally {
      await db.close();
    }
  });
});
