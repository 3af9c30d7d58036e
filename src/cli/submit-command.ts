import type { SessionStore } from '../sessions/records/session-store.js';
import { refusalLine } from '../sessions/refusal-line.js';
import type { SessionService } from '../sessions/session-service.js';
import type { Io } from './io.js';

/**
 * `deep-research ask --background "question"`: queues the session for the
 * workers and returns at once, admitted by the same rules as Slack (the
 * question, the per-person limit, the spending caps). Nobody is at the
 * prompt to answer questions, so clarification is skipped.
 */
export async function submitCommand(
  deps: { sessions: SessionStore; service: SessionService; requester: string },
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
  const started = await deps.service.queue({
    session: { origin: 'cli', requester: deps.requester, question: text },
    request: { skipClarification: true },
  });
  if (!started.started) {
    io.stderr.write(`error: ${refusalLine(started.refusal)}\n`);
    // A question that cannot be researched as written is the caller's to fix, as a bad flag is.
    return started.refusal.kind === 'question' ? 2 : 1;
  }
  const { id } = started;
  const ahead = await deps.sessions.queuePosition(id);
  io.stdout.write(
    `Queued as session ${id} (${ahead === 0 ? 'next in line' : `${ahead} ahead of you`}).\n` +
      `A running "deep-research worker" will research it; see it with: deep-research sessions show ${id.slice(0, 8)}\n`,
  );
  return 0;
}
