import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { startWorker } from '../../src/jobs/worker.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import { silentLogger } from '../../src/ports/logger.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import {
  type ReportPublished,
  SessionMoments,
  type SessionSettled,
} from '../../src/sessions/session-moments.js';
import type { Database } from '../../src/store/database.js';
import { RuleLlm, ruleSearch } from '../fakes/rule-llm.js';
import { prompts } from '../helpers/engine-harness.js';
import { realPostgres } from '../helpers/postgres.js';
import { testResearch, testService } from '../helpers/session-room.js';
import { LEASE_MS, submit, waitFor } from '../helpers/worker-harness.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(() => db.close());

describe('published moments', () => {
  it('tells subscribers when a run starts, when a session settles and when its report is published, with version and sources, past a failing listener', async () => {
    const sessions = new SessionStore(db.pool);
    const research = testResearch({
      llm: new RuleLlm({ rounds: 2 }),
      prompts,
      webSearch: ruleSearch,
      countTokens,
      clock: systemClock,
      logger: silentLogger,
    });
    const moments = new SessionMoments(sessions, research, silentLogger);
    const settled: SessionSettled[] = [];
    const published: ReportPublished[] = [];
    moments.onSettled(() => {
      throw new Error('a broken subscriber');
    });
    moments.onSettled((m) => void settled.push(m));
    const started: string[] = [];
    moments.onStarted((row) => void started.push(`${row.id}:${row.status}`));
    moments.onReportPublished((m) => void published.push(m));
    const lifecycle = new SessionLifecycle(db.pool, 24);
    const w = startWorker(
      {
        sessions,
        lifecycle,
        leases: new SessionLeases(db.pool, 'moments', LEASE_MS),
        research,
        moments,
        logger: silentLogger,
      },
      { concurrency: 1, pollMs: 50, heartbeatMs: 200, maintenanceMs: 60_000 },
    );
    try {
      const id = await submit(db, 'How do tides work?');
      const first = await waitFor(async () => published.find((p) => p.sessionId === id));
      expect(settled.map((s) => [s.session.id, s.settled.kind, s.status])).toEqual([[id, 'done', 'done']]);
      expect(started).toEqual([`${id}:running`]);
      const row = (await sessions.get(id))!;
      expect(first).toEqual({
        sessionId: id,
        teamId: null,
        channelId: null,
        threadTs: null,
        version: 1,
        sources: row.report!.sources,
      });
      expect(first.sources.length).toBeGreaterThan(0);

      // Research more: the continued session's report is version 2.
      const service = testService(db, { research });
      const continued = await service.continueFrom(row);
      const again = await service.queue({
        session: { origin: 'cli', requester: 'ann', question: row.question, turn: 2 },
        checkpoint: continued!,
      });
      expect(again.started).toBe(true);
      const second = await waitFor(async () => published.find((p) => p.sessionId === continued!.sessionId));
      expect(second.version).toBe(2);
    } finally {
      await w.stop();
    }
  });
});
