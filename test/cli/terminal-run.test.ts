import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askCommand } from '../../src/cli/ask-command.js';
import { silentLogger } from '../../src/ports/logger.js';
import {
  type ReportPublished,
  SessionMoments,
  type SessionSettled,
} from '../../src/sessions/session-moments.js';
import type { Database } from '../../src/store/database.js';
import { call, purpose, ScriptedLlm, say } from '../fakes/scripted-llm.js';
import { harness } from '../helpers/engine-harness.js';
import { io } from '../helpers/io.js';
import { realPostgres } from '../helpers/postgres.js';
import { corpusTools, finalReportStep, researcher, URL_A } from '../helpers/scenario.js';
import { storeOn, terminalDeps, testResearch } from '../helpers/session-room.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(async () => db?.close());

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
};

describe('a terminal session runs through the one runner', () => {
  it('holds its lease while the requester answers and reviews, and tells the moments workers tell', async () => {
    const llm = new ScriptedLlm([
      { name: 'clarify', match: purpose('clarify'), steps: [say('1. Which country?')] },
      { name: 'plan', match: purpose('plan'), steps: [say('1. Running costs')] },
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' }), call('generate_report')],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A], URL_A),
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    const { deps } = harness(llm, corpusTools());
    const { emit: _e, saveCheckpoint: _s, ...engine } = deps;
    const store = storeOn(db);
    const research = testResearch(engine);
    const moments = new SessionMoments(store.sessions, research, silentLogger);
    const started: string[] = [];
    const settled: SessionSettled[] = [];
    const published: ReportPublished[] = [];
    moments.onStarted((row) => void started.push(row.status));
    moments.onSettled((m) => void settled.push(m));
    moments.onReportPublished((m) => void published.push(m));
    // Read when the plan is shown, at the prompt: where the session rests while the person reads it.
    let atReview: Record<string, unknown> | undefined;
    const terminal = terminalDeps(store, research, {
      moments,
      estimatePlan: async () => {
        const { rows } = await db.pool.query(
          'SELECT status, lease_owner, lease_expires_at > now() AS live, queued_at FROM sessions',
        );
        atReview = rows[0];
        return 'n/a';
      },
    });
    const streams = io(['Retrofit in England\n', '\n']);
    const code = await askCommand(
      terminal,
      { question: 'How do heat pumps compare with gas boilers?', clarify: true, json: false },
      streams,
    );
    expect(code, streams.err.text).toBe(0);
    llm.assertDone();
    // At the prompt it rested reviewing under this process's live lease, never queued: no worker could take it.
    expect(atReview).toEqual({
      status: 'reviewing',
      lease_owner: terminal.lease.owner,
      live: true,
      queued_at: null,
    });
    const [row] = await store.sessions.listRecent({ limit: 1 });
    expect(row!.status).toBe('done');
    const { rows: lease } = await db.pool.query('SELECT lease_owner FROM sessions WHERE id = $1', [row!.id]);
    expect(lease).toEqual([{ lease_owner: null }]);
    // Three runs (questions, plan, research), each started and settled as a worker's are; the report published.
    await until(() => published.length === 1);
    expect(settled.map((m) => m.status)).toEqual(['clarifying', 'reviewing', 'done']);
    expect(started).toHaveLength(3);
    expect(published[0]).toMatchObject({ sessionId: row!.id, channelId: null, version: 1 });
    expect(published[0]!.sources.map((s) => s.url)).toContain(URL_A);
    // The answer was recorded with the session's events, before the plan.
    const events = (await store.sessions.listEvents(row!.id)).map((e) => e.event.type);
    expect(events.indexOf('clarification')).toBeLessThan(events.indexOf('plan_done'));
  });
});
