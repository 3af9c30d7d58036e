/**
 * The commands that research in this terminal (ask, resume, cancel, more), each
 * checked before a store opens or a model is called.
 */
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { BACKEND_CHOICES, backendNamed } from './backends/backend-list.js';
import { askAboutCommand } from './cli/ask-about-command.js';
import { askCommand } from './cli/ask-command.js';
import type { Io } from './cli/io.js';
import { findLocalFiles } from './cli/local-files.js';
import { cancelCommand, moreCommand, resumeCommand } from './cli/session-actions.js';
import { submitCommand } from './cli/submit-command.js';
import { TerminalLease } from './cli/terminal-lease.js';
import type { TerminalRunDeps } from './cli/terminal-run.js';
import { researchReady } from './compose.js';
import { composeSessions, type SessionsRoom } from './compose-sessions.js';
import { withStore } from './compose-store.js';
import { type Config, loadConfig } from './config/load-config.js';
import { listenForNotices } from './jobs/notice-listener.js';
import { SessionLeases } from './jobs/session-leases.js';
import type { Logger } from './ports/logger.js';
import { CANCEL_CHANNEL } from './sessions/records/cancel-requests.js';
import type { Store } from './sessions/records/store.js';

export interface AskFlags {
  question: string;
  clarify: boolean;
  answers?: string;
  out?: string;
  json: boolean;
  yes: boolean;
  backend?: string;
  background: boolean;
  about?: string;
  files: string[];
}

/** `ask` in its three forms: checked (flags, --out, settings) before a store opens or a model is called. */
export async function askFromCli(
  flags: AskFlags,
  env: Record<string, string | undefined>,
  io: Io,
  cliLogger: (config: Config) => Logger,
): Promise<number> {
  if (flags.backend !== undefined && !backendNamed(flags.backend)) {
    io.stderr.write(`error: --backend must be ${BACKEND_CHOICES} (got "${flags.backend}").\n`);
    return 2;
  }
  const config = loadConfig(flags.backend ? { ...env, RESEARCH_BACKEND: flags.backend } : env);
  // Settings, the model server and the given files are checked before anything runs (queuing needs none).
  const logger = cliLogger(config);
  if (!flags.background && flags.about === undefined) await researchReady(config, logger);
  const found = await findLocalFiles(flags.files, config.reading);
  if ('refusal' in found) {
    io.stderr.write(`error: ${found.refusal}\n`);
    return 2;
  }
  // --background and --about are over in a moment: they may use an embedded database another process has open.
  const use = { join: flags.background || flags.about !== undefined, command: 'ask' };
  return withStore(config, logger, use, async (store) => {
    // A first-time set-up with no reachable model server fails at once, in one line, instead of retrying.
    const room = composeSessions(config, logger, store, {
      unreachableIsFatal: true,
      newSessionId: randomUUID,
    });
    const requester = userInfo().username;
    if (flags.about !== undefined)
      return askAboutCommand(
        { sessions: store.sessions, asking: room.asking, requester },
        flags.about,
        flags.question,
        io,
      );
    if (flags.background)
      return submitCommand({ ...store, service: room.service, requester }, flags.question, io);
    const engine = await room.engine();
    const deps = {
      ...terminalRunDeps(config, logger, store, room, true),
      maxQuestionChars: config.slack.maxQuestionChars,
    };
    try {
      return await askCommand(deps, { ...flags, files: { given: found.files, skipped: [] } }, io);
    } finally {
      // MCP servers started for this command (stdio) stop with it.
      await engine.externalTools?.close();
      await deps.close();
    }
  });
}

/** `resume`, `cancel` and `more`: a stored session, run (or stopped) from this terminal. */
export async function sessionActionFromCli(
  action: 'resume' | 'cancel' | 'more',
  id: string,
  flags: { answers?: string; out?: string; json: boolean; yes: boolean },
  env: Record<string, string | undefined>,
  io: Io,
  cliLogger: (config: Config) => Logger,
): Promise<number> {
  const config = loadConfig(env);
  const logger = cliLogger(config);
  if (action !== 'cancel') await researchReady(config, logger);
  return withStore(config, logger, { join: action === 'cancel', command: action }, async (store) => {
    const room = composeSessions(config, logger, store, {
      unreachableIsFatal: true,
      newSessionId: randomUUID,
    });
    const deps = {
      ...terminalRunDeps(config, logger, store, room, action !== 'cancel'),
      sessions: store.sessions,
      terminals: store.terminals,
    };
    if (action === 'cancel') return cancelCommand(deps, id, io);
    const engine = await room.engine();
    const options = { clarify: true, ...flags };
    try {
      return await (action === 'resume'
        ? resumeCommand(deps, id, options, io)
        : moreCommand(deps, id, options, io));
    } finally {
      await engine.externalTools?.close();
      await deps.close();
    }
  });
}

/** How often a run on the embedded database looks for a cancel asked from another terminal. */
const CANCEL_LOOK_MS = 1000;

/**
 * What running a session in this terminal needs: the room's runner and use
 * cases, and this process's lease; when it `runs` a session, a cancel from
 * another terminal heard within a second (`close` stops hearing them).
 */
function terminalRunDeps(
  config: Config,
  logger: Logger,
  store: Store,
  room: SessionsRoom,
  runs: boolean,
): TerminalRunDeps & { close: () => Promise<void> } {
  const owner = `cli:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = config.jobs.leaseMs;
  const lease = new TerminalLease(
    new SessionLeases(store.db.pool, owner, leaseMs, ['cli']),
    store.terminals,
    leaseMs,
    logger,
  );
  const notices =
    runs && store.db.url && !store.db.embedded
      ? listenForNotices(store.db.url, { [CANCEL_CHANNEL]: (id) => lease.noticed(id) }, logger)
      : undefined;
  // The embedded database's socket passes no notifications on: a cancel from a process that joined it is looked for.
  const looking =
    runs && store.db.embedded ? setInterval(() => lease.noticedAny(), CANCEL_LOOK_MS) : undefined;
  looking?.unref();
  return {
    logger,
    runner: room.run,
    service: room.service,
    lease,
    requester: userInfo().username,
    estimatePlan: room.estimatePlan,
    pager: config.pager,
    editor: config.editor,
    close: async () => {
      clearInterval(looking);
      await notices?.stop();
    },
  };
}
