import type { SharedFiles } from '../ports/research.js';
import { questionRefusal } from '../sessions/question-refusal.js';
import { refusalLine } from '../sessions/refusal-line.js';
import type { Io } from './io.js';
import { type RunOptions, runInTerminal, type TerminalRunDeps } from './terminal-run.js';

export interface AskOptions extends RunOptions {
  question: string;
  /** Files given with the question (--file), found and checked: read as the session's first step. */
  files?: SharedFiles;
}

export interface AskDeps extends TerminalRunDeps {
  /** MAX_QUESTION_CHARS, as in Slack. */
  maxQuestionChars: number;
}

/**
 * `deep-research ask "question"`: the question checked and admitted as in
 * Slack (the per-person limit and the caps), then researched in the
 * foreground (see runInTerminal). Returns the exit code.
 */
export async function askCommand(deps: AskDeps, options: AskOptions, io: Io): Promise<number> {
  const question = options.question.trim();
  if (!question) {
    io.stderr.write(
      'error: give a question, e.g. deep-research ask "What changed in EU AI rules in 2025?"\n',
    );
    return 2;
  }
  const refusal = questionRefusal(question, deps.maxQuestionChars);
  if (refusal) {
    io.stderr.write(`error: ${refusal}\n`);
    return 2;
  }
  // A script reading JSON has nobody at a prompt: it says up front what to do about questions.
  if (options.json && options.clarify && options.answers === undefined) {
    io.stderr.write(
      'error: --json cannot ask clarifying questions at a prompt: add --no-clarify, or --answers "…" with the answer to give if asked.\n',
    );
    return 2;
  }
  const review = !options.yes && !options.json;
  const { files } = options;
  const lease = { owner: deps.lease.owner, seconds: deps.lease.seconds };
  const started = await deps.service.startHere({
    session: { origin: 'cli', requester: deps.requester, question, lease },
    request: {
      skipClarification: !options.clarify,
      ...(review ? { planReview: { seconds: 0 } } : {}),
      ...(files?.given.length ? { files } : {}),
    },
  });
  if (!started.started) {
    io.stderr.write(`error: ${refusalLine(started.refusal)}\n`);
    return 1;
  }
  const { id } = started;
  const headline = `Researching: ${question}\nSession ${id} · Ctrl-C cancels and prints what was found.\n`;
  return runInTerminal(deps, { id, question, headline }, options, io);
}
