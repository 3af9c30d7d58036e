import { isResearching } from '../sessions/records/session-status.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import type { TerminalLifecycle } from '../sessions/records/terminal-lifecycle.js';
import { refusalLine } from '../sessions/refusal-line.js';
import type { Io } from './io.js';
import { sessionById } from './sessions-command.js';
import { type RunOptions, runInTerminal, type TerminalRunDeps } from './terminal-run.js';

export interface SessionActionDeps extends TerminalRunDeps {
  sessions: SessionStore;
  terminals: TerminalLifecycle;
}

/** `deep-research resume ID`: an interrupted session goes on from its checkpoint, in the foreground. */
export async function resumeCommand(
  deps: SessionActionDeps,
  id: string,
  options: RunOptions,
  io: Io,
): Promise<number> {
  const row = await sessionById(deps.sessions, id, io);
  if (!row) return 1;
  if (row.status !== 'interrupted') {
    const why = isResearching(row.status)
      ? row.origin === 'cli'
        ? 'it is running in another process (or queued for a worker)'
        : 'it is in Slack; follow it there'
      : `it is ${row.status}`;
    io.stderr.write(`error: session ${row.id.slice(0, 8)} cannot be resumed: ${why}.\n`);
    return 1;
  }
  if (!(await deps.terminals.resume(row.id, deps.lease.owner))) {
    io.stderr.write(`error: session ${row.id.slice(0, 8)} was taken up by another process just now.\n`);
    return 1;
  }
  const headline = `Resuming: ${row.question}\nSession ${row.id} · Ctrl-C cancels and prints what was found.\n`;
  return runInTerminal(deps, { id: row.id, question: row.question, headline }, options, io);
}

/**
 * `deep-research cancel ID`: an interrupted session ends cancelled at once;
 * one running elsewhere (another terminal, a worker) is asked to stop and
 * keeps what it found, as [Cancel] does in Slack.
 */
export async function cancelCommand(deps: SessionActionDeps, id: string, io: Io): Promise<number> {
  const row = await sessionById(deps.sessions, id, io);
  if (!row) return 1;
  const short = row.id.slice(0, 8);
  if (row.status === 'interrupted') {
    if (await deps.terminals.cancelInterrupted(row.id, deps.requester)) {
      io.stdout.write(`Cancelled session ${short}.\n`);
      return 0;
    }
  }
  const now = (await deps.sessions.get(row.id)) ?? row;
  if (!isResearching(now.status)) {
    io.stderr.write(`error: session ${short} has already finished (${now.status}).\n`);
    return 1;
  }
  if (now.origin === 'slack' && (now.status === 'clarifying' || now.status === 'reviewing')) {
    io.stderr.write(`error: session ${short} waits for its requester in Slack: cancel it there.\n`);
    return 1;
  }
  const how = await deps.service.cancel(now, deps.requester, async () => []);
  io.stdout.write(
    how === 'cancelled'
      ? `Cancelled session ${short}.\n`
      : `Stopping session ${short}: the process running it stops at its next step and keeps what was found.\n`,
  );
  return 0;
}

/** `deep-research more ID`: Research more, a new session going on from a finished report, in the foreground. */
export async function moreCommand(
  deps: SessionActionDeps,
  id: string,
  options: RunOptions,
  io: Io,
): Promise<number> {
  const row = await sessionById(deps.sessions, id, io);
  if (!row) return 1;
  const continued = isResearching(row.status) ? null : await deps.service.continueFrom(row);
  if (!continued) {
    io.stderr.write(`error: session ${row.id.slice(0, 8)} has no finished report to research more from.\n`);
    return 1;
  }
  const lease = { owner: deps.lease.owner, seconds: deps.lease.seconds };
  const session = {
    origin: 'cli',
    requester: deps.requester,
    question: row.question,
    turn: row.turn + 1,
    lease,
  };
  const started = await deps.service.startHere({
    session: { ...session, origin: 'cli' },
    checkpoint: continued,
  });
  if (!started.started) {
    io.stderr.write(`error: ${refusalLine(started.refusal)}\n`);
    return 1;
  }
  const headline = `Researching more: ${row.question}\nSession ${started.id} · Ctrl-C cancels and prints what was found.\n`;
  return runInTerminal(deps, { id: started.id, question: row.question, headline }, options, io);
}
