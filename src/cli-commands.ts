import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { BACKEND_CHOICES, backendNamed } from './backends/backend-list.js';
import { askAboutCommand } from './cli/ask-about-command.js';
import { askCommand } from './cli/ask-command.js';
import type { CommandSpec } from './cli/commands.js';
import { doctorCommand } from './cli/doctor-command.js';
import { findCommand } from './cli/find-command.js';
import type { Io } from './cli/io.js';
import { kbIngest, kbList, kbRemove } from './cli/kb-command.js';
import { readLocalFiles } from './cli/local-files.js';
import { mcpList } from './cli/mcp-command.js';
import { outPathProblem } from './cli/out-path.js';
import { cancelCommand, moreCommand, resumeCommand } from './cli/session-actions.js';
import { listSessions, showSession } from './cli/sessions-command.js';
import { submitCommand } from './cli/submit-command.js';
import { TerminalLease } from './cli/terminal-lease.js';
import { modelLifecycle, openStore, researchReady } from './compose.js';
import { composeSessions } from './compose-sessions.js';
import { type Config, loadConfig } from './config.js';
import { SessionLeases } from './jobs/session-leases.js';
import { createLogger } from './logger.js';
import type { Logger } from './ports/logger.js';
import { secretsOf, urlWithoutSecrets } from './redact-secrets.js';
import { runService } from './run-service.js';
import { DocumentReader } from './search/read/document-reader.js';
import { ReportLibrary } from './sessions/report-library.js';
import { usageSummary } from './sessions/spend-caps.js';
import type { Store } from './store/store.js';

/** Commands that take exactly one session id. */
const ONE_ID = new Set(['sessions show', 'resume', 'cancel', 'more']);

/** Runs one parsed command (the CLI's composition: config, store, the session room); returns the exit code. */
export async function runCommand(
  spec: CommandSpec,
  flags: Record<string, string | boolean | undefined>,
  positionals: string[],
  env: Record<string, string | undefined>,
  io: Io,
  cliLogger: (config: Config) => Logger,
): Promise<number> {
  const text = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  const refuse = (sentence: string) => {
    io.stderr.write(`error: ${sentence}.\n`);
    return 2;
  };
  const command = `${spec.name}${spec.sub ? ` ${spec.sub}` : ''}`;
  // Where the report should go is checked first: minutes of research must not end in a typo.
  const out = text('out');
  const outProblem = out ? await outPathProblem(out) : undefined;
  if (outProblem) return refuse(outProblem);
  if (ONE_ID.has(command) && positionals.length !== 1) return refuse(`use "deep-research ${spec.forms[0]}"`);
  const withCliStore = (config: Config, run: (store: Store) => Promise<number>) =>
    withStore(config, cliLogger(config), run);
  switch (command) {
    case 'where': {
      const { database } = loadConfig(env);
      io.stdout.write(
        `${database.url ? `Postgres at ${urlWithoutSecrets(database.url)}` : resolve(database.dataDir)}\n`,
      );
      return 0;
    }
    case 'ask':
      return askFromCli(
        {
          question: positionals.join(' '),
          clarify: !flags['no-clarify'],
          answers: text('answers'),
          out: text('out'),
          json: Boolean(flags.json),
          yes: Boolean(flags.yes),
          backend: text('backend'),
          background: Boolean(flags.background),
          about: text('about'),
          files: (flags.file as unknown as string[] | undefined) ?? [],
        },
        env,
        io,
        cliLogger,
      );
    case 'find': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      return withStore(config, logger, (store) =>
        findCommand(new ReportLibrary({ db: store.db.pool, log: logger }), positionals.join(' '), io),
      );
    }
    case 'usage': {
      const config = loadConfig(env);
      return withCliStore(config, async ({ spend }) => {
        const who = { requester: userInfo().username, teamId: null };
        io.stdout.write(`${await usageSummary(spend, config.jobs.spendCaps, who)}\n`);
        return 0;
      });
    }
    case 'sessions list': {
      const limit = text('limit') === undefined ? 20 : Number(text('limit'));
      if (!Number.isInteger(limit) || limit < 1)
        return refuse(`--limit must be a whole number of at least 1 (got "${text('limit')}")`);
      const statuses = text('status')
        ?.split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      const config = loadConfig(env);
      return withCliStore(config, ({ sessions }) =>
        listSessions(sessions, io, { limit, statuses, json: Boolean(flags.json) }),
      );
    }
    case 'sessions show': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      return withStore(config, logger, (store) => {
        const { service } = composeSessions(config, logger, store, { newSessionId: randomUUID });
        const view = (id: string) => service.view(id);
        return showSession(store, positionals[0]!, io, {
          pager: config.pager,
          json: Boolean(flags.json),
          out,
          view,
        });
      });
    }
    case 'worker':
    case 'serve': {
      const config = loadConfig(env);
      const logger = createLogger(config.logLevel ?? 'info', secretsOf(env));
      return runService(config, logger, io.signal, { mode: spec.name as 'worker' | 'serve' });
    }
    case 'kb ingest':
    case 'kb list':
    case 'kb remove': {
      const config = loadConfig(env);
      return withCliStore(config, ({ knowledge: store }) => {
        if (spec.sub === 'ingest')
          return kbIngest({ store, reader: new DocumentReader(config.reading) }, positionals, io);
        if (spec.sub === 'remove') return kbRemove(store, positionals, io);
        return kbList(store, io);
      });
    }
    case 'resume':
    case 'cancel':
    case 'more': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      if (spec.name !== 'cancel') await researchReady(config, logger);
      return withStore(config, logger, async (store) => {
        const room = composeSessions(config, logger, store, {
          unreachableIsFatal: true,
          newSessionId: randomUUID,
        });
        const deps = {
          store,
          sessions: store.sessions,
          terminals: store.terminals,
          service: room.service,
          research: room.research,
          lease: terminalLease(store, config, logger),
          requester: userInfo().username,
          logger,
          estimatePlan: room.estimatePlan,
          pager: config.pager,
          editor: config.editor,
        };
        const id = positionals[0]!;
        if (spec.name === 'cancel') return cancelCommand(deps, id, io);
        const engine = await room.engine();
        const options = {
          clarify: true,
          answers: text('answers'),
          out,
          json: Boolean(flags.json),
          yes: Boolean(flags.yes),
        };
        try {
          return await (spec.name === 'resume'
            ? resumeCommand(deps, id, options, io)
            : moreCommand(deps, id, options, io));
        } finally {
          await engine.externalTools?.close();
        }
      });
    }
    case 'doctor': {
      const config = loadConfig(env);
      return doctorCommand(modelLifecycle(config, { allBackends: true }), io, Boolean(flags.json));
    }
    case 'mcp list': {
      const config = loadConfig(env);
      return mcpList(config.mcp, cliLogger(config), io);
    }
    case 'migrate': {
      const config = loadConfig(env);
      const { db, applied } = await openStore(config, cliLogger(config));
      await db.close();
      io.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'The database is up to date.\n');
      return 0;
    }
  }
  throw new Error(`no handler for ${spec.name}`);
}

interface AskFlags {
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
async function askFromCli(
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
  const given = flags.files.length ? await readLocalFiles(flags.files, config.reading) : undefined;
  return withStore(config, logger, async (store) => {
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
      research: room.research.current,
      logger,
      newSessionId: randomUUID,
      store,
      service: room.service,
      lease: terminalLease(store, config, logger),
      requester,
      maxQuestionChars: config.slack.maxQuestionChars,
      estimatePlan: room.estimatePlan,
      pager: config.pager,
      editor: config.editor,
    };
    try {
      return await askCommand({ ...deps, sources: store.sources }, { ...flags, given }, io);
    } finally {
      // MCP servers started for this command (stdio) stop with it.
      await engine.externalTools?.close();
    }
  });
}

async function withStore(
  config: Config,
  logger: Logger,
  run: (store: Store) => Promise<number>,
): Promise<number> {
  const store = await openStore(config, logger);
  try {
    // Terminal sessions whose process went away rest interrupted before anything reads or counts them.
    await store.terminals.interruptLapsed();
    return await run(store);
  } finally {
    await store.db.close();
  }
}

/** The lease this process holds on the session it runs in the foreground. */
function terminalLease(store: Store, config: Config, logger: Logger): TerminalLease {
  const owner = `cli:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = config.jobs.leaseMs;
  return new TerminalLease(
    new SessionLeases(store.db.pool, owner, leaseMs, ['cli']),
    store.terminals,
    leaseMs,
    logger,
  );
}
