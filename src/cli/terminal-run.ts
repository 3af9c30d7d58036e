import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { describeError } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import { reportDocument, usageFooter } from '../ports/report-markdown.js';
import { LeaseLostError } from '../sessions/records/lease-lost-error.js';
import { type RunEnd, runStoredSession, type SessionRunDeps } from '../sessions/run-stored-session.js';
import type { SessionService } from '../sessions/session-service.js';
import type { Settled } from '../sessions/session-surface.js';
import type { Io } from './io.js';
import { type PlanDecision, reviewPlanAtPrompt } from './plan-prompt.js';
import { printReport } from './print-report.js';
import { Interruption, type TerminalLease } from './terminal-lease.js';
import { TerminalSurface } from './terminal-surface.js';

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
  /** How a stored session runs: the session room's one runner, the workers' too. */
  runner: SessionRunDeps;
  /** The session's use cases (an answer, a start or a cancel at the prompt). */
  service: SessionService;
  /** The session's lease, renewed while this process runs it. */
  lease: TerminalLease;
  /** The requester at this terminal (who cancels). */
  requester: string;
  /** The pre-flight estimate shown with the plan. */
  estimatePlan?: () => Promise<string>;
  /** Shell command a long report goes through in a terminal (PAGER). */
  pager?: string;
  /** The plan editor (VISUAL, EDITOR); unset, the plan is typed at the prompt. */
  editor?: string;
}

/** A stored session this process runs under its lease: new, resumed or continued. */
export interface TerminalRun {
  id: string;
  question: string;
  /** Said before progress starts. */
  headline: string;
}

/**
 * Runs a stored session in the foreground through the session room's runner
 * (the workers' too: recorded, its moments told), with this terminal as its
 * surface: clarification at the prompt, the plan, live progress, then the
 * report with numbered sources. Returns the exit code. The terminal closing
 * (SIGHUP, SIGTERM) leaves it `interrupted`, to be resumed; Ctrl-C cancels it
 * and prints what was found.
 */
export async function runInTerminal(
  deps: TerminalRunDeps,
  session: TerminalRun,
  options: RunOptions,
  io: Io,
): Promise<number> {
  const { id, question } = session;
  const { lease } = deps;
  const log = deps.logger.child({ sessionId: id });
  const surface = new TerminalSurface(io, options.json);
  const { view } = surface;
  const held = lease.keep(id);
  const signal = AbortSignal.any([io.signal, held.lost]);
  // The terminal going away (or the lease lost) stops a run without ending the session: it rests interrupted.
  const interruption = () => (signal.reason instanceof Interruption ? signal.reason : null);
  const segment = (runSignal: AbortSignal): Promise<RunEnd> =>
    runStoredSession(deps.runner, id, {
      log,
      signal: runSignal,
      owner: lease.owner,
      handedBack: (error) => error instanceof LeaseLostError || interruption() !== null,
      surfaceFor: surface.open,
      holdsRest: true,
    });
  const interrupted = async (error?: Interruption) => {
    view?.stop();
    const why = error ?? new Interruption('this process was paused past its lease', true);
    if (!why.leaseLost) await lease.interrupt(id);
    io.stderr.write(`Interrupted (${why.message}): resume it with deep-research resume ${id.slice(0, 8)}\n`);
    return 1;
  };
  const refused = async (line: string, code: number) => {
    view?.stop();
    await lease.release(id);
    io.stderr.write(`${line}\n`);
    return code;
  };
  try {
    view?.print(session.headline);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'session', sessionId: id, question })}\n`);
    let end = await segment(signal);
    if (!end.handedBack && end.settled.kind === 'needs_clarification') {
      view?.stop();
      const { questions } = end.settled;
      if (options.json && options.answers === undefined) {
        // Nobody reads a prompt under --json: say what to do instead of waiting on one.
        return await refused(
          `error: the research asks clarifying questions and --json cannot prompt: give --answers "…" (session ${id}).`,
          2,
        );
      }
      const answer =
        options.answers !== undefined
          ? given(io, questions, options.answers, options.json)
          : await askUser(io, questions);
      if (interruption()) return await interrupted(interruption()!);
      if (!(await deps.service.answerHere(id, answer, lease.owner)))
        return await refused(`error: session ${id} no longer waits for answers (cancelled elsewhere?).`, 1);
      end = await segment(signal);
    }
    if (!end.handedBack && end.settled.kind === 'needs_plan_review') {
      view?.stop();
      const decision: PlanDecision =
        options.yes || options.json
          ? { kind: 'start' }
          : await reviewPlanAtPrompt(io, (await deps.estimatePlan?.().catch(() => undefined)) ?? 'n/a', {
              plan: end.settled.plan,
              editor: deps.editor,
            });
      if (interruption()) return await interrupted(interruption()!);
      if (decision.kind === 'cancel') {
        const row = await deps.runner.sessions.get(id);
        if (row) await deps.service.cancel(row, deps.requester, async () => [], lease.owner);
        return await refused(`Cancelled before research started (session ${id}).`, 1);
      }
      if (!(await deps.service.startReviewedHere(id, lease.owner, decision.plan)))
        return await refused(`error: session ${id} no longer waits for its plan (cancelled elsewhere?).`, 1);
      end = await segment(signal);
    }
    view?.stop();
    if (end.handedBack) return await interrupted(interruption() ?? undefined);
    await lease.release(id);
    return await finish(end.settled, session, options, io, deps.pager);
  } catch (error) {
    // Between runs (a prompt, a write of the answer): the session rests where it was, resumable once the lease lapses.
    log.error({ err: error }, 'ask failed');
    await lease.release(id).catch(() => {});
    io.stderr.write(`error: ${describeError(error)} (session ${id})\n`);
    return 1;
  } finally {
    held.stop();
    view?.stop();
  }
}

async function finish(
  outcome: Settled,
  { id, question }: TerminalRun,
  options: RunOptions,
  io: Io,
  pager = 'less -FRX',
): Promise<number> {
  if (outcome.kind === 'failed') {
    io.stderr.write(`error: ${outcome.message} (session ${id})\n`);
    if (options.json)
      io.stdout.write(`${JSON.stringify({ type: 'error', message: outcome.message, sessionId: id })}\n`);
    return 1;
  }
  if (outcome.kind === 'needs_clarification' || outcome.kind === 'needs_plan_review') {
    // One round of questions, one review: a second request cannot happen, but must not hang.
    io.stderr.write(
      `error: the session stopped again for ${outcome.kind === 'needs_plan_review' ? 'a plan review' : 'clarification'}; try --no-clarify.\n`,
    );
    return 1;
  }
  const report = outcome.kind === 'done' ? outcome.report : outcome.found;
  const footer = usageFooter(report, outcome.view.usage, outcome.checkpoint.sessionId);
  // --out was checked before the research; the folder may have gone since: the report is printed all the same.
  const unwritten =
    options.out === undefined
      ? undefined
      : await writeFile(options.out, reportDocument(question, report, footer)).then(
          () => undefined,
          (error: NodeJS.ErrnoException) => error.code ?? error.message,
        );
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ type: 'result', outcome: outcome.kind, report })}\n`);
  } else {
    if (outcome.kind === 'cancelled') io.stderr.write('\nCancelled. What was found so far:\n');
    // A person at a terminal reads the report rendered (and paged when long); a pipe or file gets Markdown.
    await printReport(question, report, footer, io, pager);
    if (options.out && !unwritten) io.stderr.write(`Report written to ${options.out}\n`);
  }
  if (unwritten) {
    io.stderr.write(
      `error: could not write the report to ${options.out} (${unwritten}); it is printed above and kept: deep-research sessions show ${id.slice(0, 8)} --out FILE\n`,
    );
    return 1;
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
