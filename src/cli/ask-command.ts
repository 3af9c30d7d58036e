import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { describeError } from '../engine/errors.js';
import { questionRefusal } from '../engine/question-refusal.js';
import { reportDocument, usageFooter } from '../engine/report-markdown.js';
import type { Logger } from '../ports/logger.js';
import type { Checkpoint, ResearchBackend, ResearchEvent, ResearchOutcome } from '../ports/research.js';
import { SessionRecorder } from '../sessions/session-recorder.js';
import type { SessionService } from '../sessions/session-service.js';
import type { SessionLifecycle } from '../store/session-lifecycle.js';
import type { SessionStore } from '../store/session-store.js';
import type { Io } from './io.js';
import { reviewPlanAtPrompt } from './plan-prompt.js';
import { printReport } from './print-report.js';
import { refusalLine } from './refusal-line.js';
import { TerminalView } from './terminal-view.js';

export interface AskOptions {
  question: string;
  clarify: boolean;
  /** The answer to clarifying questions, given up front (nobody is asked at the prompt). */
  answers?: string;
  out?: string;
  json: boolean;
  /** Start without asking about the plan (--yes); --json never asks. */
  yes?: boolean;
}

export interface AskDeps {
  /** The backend new sessions are researched by. */
  research: ResearchBackend;
  logger: Logger;
  newSessionId: () => string;
  /**
   * Where the session is admitted (the question, the per-person limit and the
   * caps, as in Slack) and recorded, so `sessions show` can print it later.
   */
  store?: { sessions: SessionStore; lifecycle: SessionLifecycle; service: SessionService };
  requester?: string;
  /** MAX_QUESTION_CHARS, as in Slack. */
  maxQuestionChars: number;
  /** The pre-flight estimate shown with the plan. */
  estimatePlan?: () => Promise<string>;
  /** Shell command a long report goes through in a terminal (PAGER). */
  pager?: string;
}

/**
 * `deep-research ask "question"`: clarification at the prompt, the plan, live
 * progress, then the report with numbered sources. Returns the exit code.
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
  // Progress, prompts and notes go to stderr, so `ask … > report.md` captures the report alone.
  const view = options.json ? null : new TerminalView(io.stderr, io.plain);
  const review = !options.yes && !options.json;
  const { research, store } = deps;
  const log = deps.logger;
  let checkpoint: Checkpoint = research.begin(deps.newSessionId(), {
    question,
    skipClarification: !options.clarify,
    ...(review ? { planReview: { seconds: 0 } } : {}),
  });
  const id = checkpoint.sessionId;
  const recorder = store ? new SessionRecorder(store.sessions, store.lifecycle, id, log) : null;
  const emit = (event: ResearchEvent) => {
    recorder?.onEvent(event);
    if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else view!.onEvent(event);
    if (!options.json && event.type === 'plan_done') view!.print(`\nResearch plan:\n${event.plan}\n`);
  };
  let spendLimitUsd: number | undefined;
  const run = (signal: AbortSignal) =>
    research.run({
      checkpoint,
      emit,
      saveCheckpoint: recorder ? (c) => recorder.checkpoint(c) : async () => {},
      signal,
      logger: log,
      spendLimitUsd,
    });
  try {
    if (store) {
      const session = { id, origin: 'cli', requester: deps.requester ?? 'cli', question } as const;
      const started = await store.service.startHere({ session, checkpoint });
      if (!started.started) {
        io.stderr.write(`error: ${refusalLine(started.refusal)}\n`);
        return 1;
      }
      // Under the caps the run may spend what it reserved.
      spendLimitUsd = started.spendLimitUsd;
    }
    view?.print(`Researching: ${question}\nSession ${id} · Ctrl-C cancels and prints what was found.\n`);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'session', sessionId: id, question })}\n`);
    view?.start();
    let outcome: ResearchOutcome = await run(io.signal);
    if (outcome.kind === 'needs_clarification') {
      await recorder?.finish(outcome);
      view?.stop();
      const answer =
        options.answers !== undefined
          ? given(io, outcome.questions, options.answers, options.json)
          : await askUser(io, outcome.questions);
      checkpoint = research.answer(outcome.checkpoint, answer);
      await store?.lifecycle.resume(id);
      view?.start();
      outcome = await run(io.signal);
    }
    if (outcome.kind === 'needs_plan_review') {
      view?.stop();
      const estimate = (await deps.estimatePlan?.().catch(() => undefined)) ?? 'n/a';
      const decision = await reviewPlanAtPrompt(io, estimate);
      checkpoint =
        decision.kind === 'start' && decision.plan
          ? research.withPlan(outcome.checkpoint, decision.plan)
          : outcome.checkpoint;
      // Declined: the session ends cancelled before any research, as a cancel at the first step would.
      const declined = new AbortController();
      if (decision.kind === 'cancel') declined.abort();
      view?.start();
      outcome = await run(decision.kind === 'cancel' ? declined.signal : io.signal);
      if (decision.kind === 'cancel') {
        view?.stop();
        await recorder?.finish(outcome);
        io.stderr.write(`Cancelled before research started (session ${id}).\n`);
        return 1;
      }
    }
    view?.stop();
    await recorder?.finish(outcome);
    return await finish(outcome, question, options, io, deps.pager);
  } catch (error) {
    view?.stop();
    const message = describeError(error);
    await recorder?.fail(message).catch(() => {});
    io.stderr.write(`error: ${message} (session ${id})\n`);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'error', message, sessionId: id })}\n`);
    log.error({ err: error, sessionId: id }, 'ask failed');
    return 1;
  }
}

async function finish(
  outcome: ResearchOutcome,
  question: string,
  options: AskOptions,
  io: Io,
  pager = 'less -FRX',
): Promise<number> {
  if (outcome.kind === 'needs_clarification' || outcome.kind === 'needs_plan_review') {
    // One round of questions, one review: a second request cannot happen, but must not hang.
    io.stderr.write(
      `error: the session stopped again for ${outcome.kind === 'needs_plan_review' ? 'a plan review' : 'clarification'}; try --no-clarify.\n`,
    );
    return 1;
  }
  const report = outcome.kind === 'done' ? outcome.report : outcome.found;
  const footer = usageFooter(report, outcome.view.usage, outcome.checkpoint.sessionId);
  if (options.out) await writeFile(options.out, reportDocument(question, report, footer));
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ type: 'result', outcome: outcome.kind, report })}\n`);
  } else {
    if (outcome.kind === 'cancelled') io.stderr.write('\nCancelled. What was found so far:\n');
    // A person at a terminal reads the report rendered (and paged when long); a pipe or file gets Markdown.
    await printReport(question, report, footer, io, pager);
    if (options.out) io.stderr.write(`Report written to ${options.out}\n`);
  }
  return outcome.kind === 'done' ? 0 : 130;
}

/** The answer --answers gave, shown with the questions it answers (an empty one answers nothing). */
function given(io: Io, questions: string, answers: string, json: boolean): string | null {
  if (!json) io.stderr.write(`\n${questions}\n\nAnswered with --answers: ${answers.trim() || '(nothing)'}\n`);
  return answers.trim() || null;
}

/** Prints the questions and reads one line; an empty line or closed input starts without answering. */
async function askUser(io: Io, questions: string): Promise<string | null> {
  io.stderr.write(
    `\n${questions}\n\nYour answer (press Enter on an empty line to start without answering):\n> `,
  );
  const rl = createInterface({ input: io.stdin, terminal: false });
  try {
    const line = await new Promise<string | null>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(null));
      io.signal.addEventListener('abort', () => resolve(null), { once: true });
    });
    return line?.trim() ? line.trim() : null;
  } finally {
    rl.close();
  }
}
