import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { describeError } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import { reportDocument, usageFooter } from '../ports/report-markdown.js';
import type { Checkpoint, ResearchBackend, ResearchEvent, ResearchOutcome } from '../ports/research.js';
import type { SessionLifecycle } from '../sessions/records/session-lifecycle.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import { SessionRecorder } from '../sessions/session-recorder.js';
import type { Io } from './io.js';
import { reviewPlanAtPrompt } from './plan-prompt.js';
import { printReport } from './print-report.js';
import { Interruption, type TerminalLease } from './terminal-lease.js';
import { TerminalView } from './terminal-view.js';

export interface RunOptions {
  clarify: boolean;
  /** The answer to clarifying questions, given up front (nobody is asked at the prompt). */
  answers?: string;
  out?: string;
  json: boolean;
  /** Start without asking about the plan (--yes); --json never asks. */
  yes?: boolean;
}

export interface TerminalRunDeps {
  logger: Logger;
  /** Where the session is recorded as it runs, so `sessions show` can print it and `resume` go on with it. */
  store?: { sessions: SessionStore; lifecycle: SessionLifecycle };
  /** The session's lease, renewed while this process runs it. */
  lease?: TerminalLease;
  /** The pre-flight estimate shown with the plan. */
  estimatePlan?: () => Promise<string>;
  /** Shell command a long report goes through in a terminal (PAGER). */
  pager?: string;
  /** The plan editor (VISUAL, EDITOR); unset, the plan is typed at the prompt. */
  editor?: string;
}

/** A session this process runs from `checkpoint` with `backend`: a new one, resumed or continued. */
export interface TerminalRun {
  question: string;
  checkpoint: Checkpoint;
  backend: ResearchBackend;
  spendLimitUsd?: number;
  /** Said before progress starts. */
  headline: string;
}

/**
 * Runs a session in the foreground: clarification at the prompt, the plan,
 * live progress, then the report with numbered sources. Returns the exit
 * code. The terminal closing (SIGHUP, SIGTERM) leaves it `interrupted`, to
 * be resumed; Ctrl-C cancels it and prints what was found.
 */
export async function runInTerminal(
  deps: TerminalRunDeps,
  session: TerminalRun,
  options: RunOptions,
  io: Io,
): Promise<number> {
  const { backend, question } = session;
  const log = deps.logger;
  let checkpoint = session.checkpoint;
  const id = checkpoint.sessionId;
  // Progress, prompts and notes go to stderr, so `ask … > report.md` captures the report alone.
  const view = options.json ? null : new TerminalView(io.stderr, io.plain);
  const { store, lease } = deps;
  const recorder = store ? new SessionRecorder(store.sessions, store.lifecycle, id, log) : null;
  const held = lease?.keep(id);
  const signal = held ? AbortSignal.any([io.signal, held.lost]) : io.signal;
  const emit = (event: ResearchEvent) => {
    recorder?.onEvent(event);
    if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else view!.onEvent(event);
    if (!options.json && event.type === 'plan_done') view!.print(`\nResearch plan:\n${event.plan}\n`);
  };
  // A run the terminal's going away stopped is no outcome: it throws, and the session rests interrupted.
  const interruption = () => {
    if (signal.reason instanceof Interruption) throw signal.reason;
  };
  const run = async (runSignal: AbortSignal) => {
    const outcome = await backend.run({
      checkpoint,
      emit,
      saveCheckpoint: recorder ? (c) => recorder.checkpoint(c) : async () => {},
      signal: runSignal,
      logger: log,
      spendLimitUsd: session.spendLimitUsd,
    });
    if (outcome.kind === 'cancelled') interruption();
    return outcome;
  };
  // The process goes away with the session unfinished: it rests interrupted, resumable from its checkpoint.
  const interrupted = async () => {
    view?.stop();
    await recorder?.flush();
    if (!(signal.reason instanceof Interruption && signal.reason.leaseLost)) await lease?.interrupt(id);
    io.stderr.write(
      `Interrupted (${(signal.reason as Error).message}): resume it with deep-research resume ${id.slice(0, 8)}\n`,
    );
    return 1;
  };
  try {
    view?.print(session.headline);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'session', sessionId: id, question })}\n`);
    view?.start();
    let outcome: ResearchOutcome = await run(signal);
    if (outcome.kind === 'needs_clarification') {
      await recorder?.finish(outcome);
      view?.stop();
      if (options.json && options.answers === undefined) {
        // Nobody reads a prompt under --json: say what to do instead of waiting on one.
        await lease?.release(id);
        io.stderr.write(
          `error: the research asks clarifying questions and --json cannot prompt: give --answers "…" (session ${id}).\n`,
        );
        return 2;
      }
      const answer =
        options.answers !== undefined
          ? given(io, outcome.questions, options.answers, options.json)
          : await askUser(io, outcome.questions);
      interruption();
      checkpoint = backend.answer(outcome.checkpoint, answer);
      await store?.lifecycle.resume(id);
      view?.start();
      outcome = await run(signal);
    }
    if (outcome.kind === 'needs_plan_review' && (options.yes || options.json)) {
      checkpoint = outcome.checkpoint;
      outcome = await run(signal);
    } else if (outcome.kind === 'needs_plan_review') {
      view?.stop();
      const estimate = (await deps.estimatePlan?.().catch(() => undefined)) ?? 'n/a';
      const decision = await reviewPlanAtPrompt(io, estimate, { plan: outcome.plan, editor: deps.editor });
      interruption();
      checkpoint =
        decision.kind === 'start' && decision.plan
          ? backend.withPlan(outcome.checkpoint, decision.plan)
          : outcome.checkpoint;
      // Declined: the session ends cancelled before any research, as a cancel at the first step would.
      const declined = new AbortController();
      if (decision.kind === 'cancel') declined.abort();
      view?.start();
      outcome = await run(decision.kind === 'cancel' ? declined.signal : signal);
      if (decision.kind === 'cancel') {
        view?.stop();
        await recorder?.finish(outcome);
        await lease?.release(id);
        io.stderr.write(`Cancelled before research started (session ${id}).\n`);
        return 1;
      }
    }
    view?.stop();
    await recorder?.finish(outcome);
    await lease?.release(id);
    return await finish(outcome, question, options, io, deps.pager);
  } catch (error) {
    view?.stop();
    if (signal.reason instanceof Interruption) return await interrupted();
    const message = describeError(error);
    await recorder?.fail(message).catch(() => {});
    await lease?.release(id).catch(() => {});
    io.stderr.write(`error: ${message} (session ${id})\n`);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'error', message, sessionId: id })}\n`);
    log.error({ err: error, sessionId: id }, 'ask failed');
    return 1;
  } finally {
    held?.stop();
    view?.stop();
  }
}

async function finish(
  outcome: ResearchOutcome,
  question: string,
  options: RunOptions,
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
