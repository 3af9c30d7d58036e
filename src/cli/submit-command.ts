import { questionRefusal } from '../engine/question-refusal.js';
import { newSession } from '../engine/run-session.js';
import type { AdmissionRules, SessionAdmission } from '../sessions/admission.js';
import type { SessionStore } from '../store/session-store.js';
import type { Io } from './io.js';
import { refusalLine } from './refusal-line.js';

/**
 * `deep-research ask --background "question"`: queues the session for the
 * workers and returns at once, admitted by the same rules as Slack (the
 * question, the per-person limit, the spending caps). Nobody is at the
 * prompt to answer questions, so clarification is skipped.
 */
export async function submitCommand(
  deps: {
    sessions: SessionStore;
    admission: SessionAdmission;
    rules: () => Promise<AdmissionRules>;
    newSessionId: () => string;
    requester: string;
    maxQuestionChars: number;
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
  const invalid = questionRefusal(text, deps.maxQuestionChars);
  if (invalid) {
    io.stderr.write(`error: ${invalid}\n`);
    return 2;
  }
  const id = deps.newSessionId();
  const admission = await deps.admission.admitQueued(
    { id, origin: 'cli', requester: deps.requester, question: text },
    newSession(id, { question: text, skipClarification: true }),
    {},
    await deps.rules(),
  );
  if (!admission.admitted) {
    io.stderr.write(`error: ${refusalLine(admission.refusal)}\n`);
    return 1;
  }
  const ahead = await deps.sessions.queuePosition(id);
  io.stdout.write(
    `Queued as session ${id} (${ahead === 0 ? 'next in line' : `${ahead} ahead of you`}).\n` +
      `A running "deep-research worker" will research it; see it with: deep-research sessions show ${id.slice(0, 8)}\n`,
  );
  return 0;
}
