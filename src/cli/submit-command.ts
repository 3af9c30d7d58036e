import { newSession } from '../engine/run-session.js';
import type { SessionLifecycle } from '../store/session-lifecycle.js';
import type { SessionStore } from '../store/session-store.js';
import type { Io } from './ask-command.js';

/**
 * `deep-research ask --background "question"`: queues the session for the
 * workers and returns at once. Nobody is at the prompt to answer questions,
 * so clarification is skipped.
 */
export async function submitCommand(
  deps: {
    sessions: SessionStore;
    lifecycle: SessionLifecycle;
    newSessionId: () => string;
    requester: string;
    limit: number;
  },
  question: string,
  io: Io,
): Promise<number> {
  const text = question.trim();
  if (!text) {
    io.stderr.write(
      'error: give a question, e.g. deep-research ask --background "What changed in EU AI rules in 2025?"\n',
    );
    return 2;
  }
  const active = await deps.sessions.activeCount(deps.requester);
  if (active >= deps.limit) {
    io.stderr.write(
      `error: you already have ${active} research sessions running (the limit is ${deps.limit}); wait for one to finish or cancel it.\n`,
    );
    return 1;
  }
  const id = deps.newSessionId();
  await deps.lifecycle.createQueued(
    { id, origin: 'cli', requester: deps.requester, question: text },
    newSession(id, { question: text, skipClarification: true }),
  );
  const ahead = await deps.sessions.queuePosition(id);
  io.stdout.write(
    `Queued as session ${id} (${ahead === 0 ? 'next in line' : `${ahead} ahead of you`}).\n` +
      `A running "deep-research worker" will research it; see it with: deep-research sessions show ${id.slice(0, 8)}\n`,
  );
  return 0;
}
