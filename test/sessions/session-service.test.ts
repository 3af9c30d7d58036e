import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';
import { agentsState, testService } from '../helpers/session-room.js';

let db: Database;
let sessions: SessionStore;
beforeAll(async () => {
  db = await realPostgres();
  sessions = new SessionStore(db.pool);
});
afterAll(() => db.close());

/** A queued session moved to where a run would have left it, with its checkpoint there. */
async function restingAt(status: 'clarifying' | 'reviewing', state: Record<string, unknown>) {
  const service = testService(db);
  const started = await service.queue({
    session: { origin: 'cli', requester: `p-${randomUUID()}`, question: 'What about tides?' },
  });
  if (!started.started) throw new Error('not admitted');
  await sessions.saveCheckpoint({ ...started.checkpoint, ...state } as never);
  await db.pool.query('UPDATE sessions SET status = $2, lease_owner = NULL WHERE id = $1', [
    started.id,
    status,
  ]);
  return { service, id: started.id };
}

describe('the session use cases', () => {
  it('refuses an unusable question before admission, as a value every surface words its own way', async () => {
    const service = testService(db, { maxQuestionChars: 10 });
    expect(await service.refusal({ requester: 'ann' }, 'far too long a question')).toEqual({
      kind: 'question',
      sentence: expect.stringContaining('the limit is 10'),
    });
    const started = await service.queue({
      session: { origin: 'cli', requester: 'ann', question: 'x'.repeat(11) },
    });
    expect(started).toMatchObject({ started: false, refusal: { kind: 'question' } });
    expect(await sessions.listRecent({ requester: 'ann', limit: 5 })).toEqual([]);
  });

  it('starts a session with the current backend: its first checkpoint names it and its view shows the question', async () => {
    const service = testService(db);
    const started = await service.queue({
      session: { origin: 'cli', requester: 'bo', question: 'How do tides work?' },
      request: { skipClarification: true },
    });
    expect(started.started).toBe(true);
    if (!started.started) return;
    expect((await sessions.loadCheckpoint(started.id))!.backend).toBe('agents');
    expect(await service.view(started.id)).toMatchObject({
      backend: 'agents',
      question: 'How do tides work?',
      phase: 'clarify',
      plan: null,
      reportVersion: 1,
    });
  });

  it('edits a plan under review through the backend: the checkpoint and the session hold the new plan, once started no more', async () => {
    const { service, id } = await restingAt('reviewing', { phase: 'review', plan: '1. Old step' });
    expect(await service.editPlan(id, 'UANN', '1. New step\n2. Another', 60)).toBe(true);
    expect((await service.view(id))!.plan).toBe('1. New step\n2. Another');
    expect((await agentsState(sessions, id))!.phase).toBe('review');
    expect((await sessions.get(id))!.plan).toBe('1. New step\n2. Another');
    await db.pool.query("UPDATE sessions SET status = 'running' WHERE id = $1", [id]);
    expect(await service.editPlan(id, 'UANN', '1. Too late', 60)).toBe(false);
    expect((await service.view(id))!.plan).toBe('1. New step\n2. Another');
  });

  it('takes an answer once: the answered checkpoint is queued, a second answer changes nothing', async () => {
    const clarification = { questions: '1. Which sea?', answer: null };
    const { service, id } = await restingAt('clarifying', {
      request: { question: 'What about tides?', clarification },
    });
    expect(await service.answer(id, 'The North Sea\u0007')).toBe(true);
    expect((await sessions.get(id))!.status).toBe('queued');
    expect((await service.view(id))!.clarification).toEqual({
      questions: '1. Which sea?',
      answer: 'The North Sea',
    });
    expect((await agentsState(sessions, id))!.phase).toBe('plan');
    expect(await service.answer(id, 'The Baltic')).toBe(false);
    expect((await service.view(id))!.clarification!.answer).toBe('The North Sea');
  });

  it('cancels a session waiting for answers at once, and asks running research to stop', async () => {
    const waiting = await restingAt('clarifying', {});
    const closing = async () => [];
    expect(await waiting.service.cancel((await sessions.get(waiting.id))!, 'ann', closing)).toBe('cancelled');
    expect((await sessions.get(waiting.id))!.status).toBe('cancelled');

    const running = await restingAt('clarifying', {});
    await db.pool.query("UPDATE sessions SET status = 'running' WHERE id = $1", [running.id]);
    expect(await running.service.cancel((await sessions.get(running.id))!, 'ann', closing)).toBe('stopping');
    expect((await sessions.get(running.id))!).toMatchObject({ status: 'running', cancelledBy: 'ann' });
  });

  it('continues only from a session with a report, as a new version that keeps what it read', async () => {
    const { service, id } = await restingAt('reviewing', {});
    expect(await service.continueFrom((await sessions.get(id))!)).toBeNull();
    const report = {
      markdown: 'Tides [1].',
      sources: [],
      partial: null,
      durationMs: 1,
      sourcesSeen: 1,
      costUsd: 0,
    };
    await sessions.saveCheckpoint({
      ...(await sessions.loadCheckpoint(id))!,
      phase: 'done',
      readUrls: ['https://a.example/'],
      report,
    } as never);
    await db.pool.query("UPDATE sessions SET status = 'done', report = $2 WHERE id = $1", [id, report]);
    const next = await service.continueFrom((await sessions.get(id))!);
    expect(next).not.toBeNull();
    expect(next!.sessionId).not.toBe(id);
    const state = next as unknown as { reportVersion: number; earlierReads: string[]; phase: string };
    expect([state.reportVersion, state.earlierReads, state.phase]).toEqual([
      2,
      ['https://a.example/'],
      'research',
    ]);
  });

  it('keeps a steering note without control characters, and nothing for an empty one', async () => {
    const { service, id } = await restingAt('clarifying', {});
    expect(await service.steer(id, 'ann', '  \u0007 ')).toBe(false);
    expect(await service.steer(id, 'ann', 'Focus on\u0000 Europe')).toBe(true);
    const { rows } = await db.pool.query('SELECT text FROM session_steering WHERE session_id = $1', [id]);
    expect(rows.map((r) => r.text)).toEqual(['Focus on Europe']);
  });
});
