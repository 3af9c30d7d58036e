import type { ResearchBackend, SharedFiles } from '../ports/research.js';
import type { SourceTexts } from '../ports/source-texts.js';
import { questionRefusal } from '../sessions/question-refusal.js';
import type { SessionService } from '../sessions/session-service.js';
import type { Io } from './io.js';
import { refusalLine } from './refusal-line.js';
import { type RunOptions, runInTerminal, type TerminalRunDeps } from './terminal-run.js';

export interface AskOptions extends RunOptions {
  question: string;
  /** Files given with the question (--file), already read: kept with the session once it is admitted. */
  given?: { files: SharedFiles; texts: Map<string, string> };
}

export interface AskDeps extends TerminalRunDeps {
  /** The backend new sessions are researched by. */
  research: ResearchBackend;
  newSessionId: () => string;
  /**
   * Where the session is admitted (the question, the per-person limit and the
   * caps, as in Slack); with `store`, recorded as it runs.
   */
  service?: SessionService;
  requester?: string;
  /** MAX_QUESTION_CHARS, as in Slack. */
  maxQuestionChars: number;
  /** Where the given files' texts are kept with the session (the source store). */
  sources?: SourceTexts;
}

/**
 * `deep-research ask "question"`: the question checked and admitted as in
 * Slack, then researched in the foreground (see runInTerminal). Returns the
 * exit code.
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
  const files = options.given?.files;
  const checkpoint = deps.research.begin(deps.newSessionId(), {
    question,
    skipClarification: !options.clarify,
    ...(review ? { planReview: { seconds: 0 } } : {}),
    ...(files?.given.length ? { files } : {}),
  });
  const id = checkpoint.sessionId;
  let spendLimitUsd: number | undefined;
  if (deps.service) {
    const lease = deps.lease && { owner: deps.lease.owner, seconds: deps.lease.seconds };
    const session = { id, origin: 'cli', requester: deps.requester ?? 'cli', question, lease } as const;
    const started = await deps.service.startHere({ session, checkpoint });
    if (!started.started) {
      io.stderr.write(`error: ${refusalLine(started.refusal)}\n`);
      return 1;
    }
    // Under the caps the run may spend what it reserved.
    spendLimitUsd = started.spendLimitUsd;
  }
  for (const file of files?.given ?? []) {
    const text = options.given!.texts.get(file.key)!;
    await deps.sources?.keep(id, { key: file.key, n: 0, title: file.name, text });
  }
  if (files?.given.length && !options.json)
    io.stderr.write(
      `Reading ${files.given.map((f) => f.name + (f.note ? ` (${f.note})` : '')).join(', ')}.\n`,
    );
  if (files?.skipped.length && !options.json)
    io.stderr.write(`Not read: ${files.skipped.map((f) => `${f.name} (${f.reason})`).join('; ')}.\n`);
  const headline = `Researching: ${question}\nSession ${id} · Ctrl-C cancels and prints what was found.\n`;
  return runInTerminal(
    deps,
    { question, checkpoint, backend: deps.research, spendLimitUsd, headline },
    options,
    io,
  );
}
