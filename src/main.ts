import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { askAboutCommand } from './cli/ask-about-command.js';
import { askCommand } from './cli/ask-command.js';
import { findCommand } from './cli/find-command.js';
import { commandHelp, USAGE, VERSION } from './cli/help.js';
import type { Io } from './cli/io.js';
import { kbIngest, kbList, kbRemove } from './cli/kb-command.js';
import { listSessions, showSession } from './cli/sessions-command.js';
import { submitCommand } from './cli/submit-command.js';
import { terminalLogger } from './cli/terminal-logger.js';
import { openStore } from './compose.js';
import { composeSessions } from './compose-sessions.js';
import { type Config, loadConfig } from './config.js';
import { AppError, describeError } from './engine/errors.js';
import { withEnvFile } from './env-file.js';
import { currentSessionId } from './jobs/session-scope.js';
import { createLogger } from './logger.js';
import type { Logger } from './ports/logger.js';
import { secretsOf, urlWithoutSecrets } from './redact-secrets.js';
import { runService } from './run-service.js';
import { KnowledgeStore } from './search/knowledge/knowledge-store.js';
import { ReportLibrary } from './sessions/report-library.js';
import { usageSummary } from './sessions/spend-caps.js';
import type { Store } from './store/store.js';

/** Parses the command line and runs one command; returns the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io,
): Promise<number> {
  // --verbose anywhere: informational logs too, for every command.
  const verbose = argv.includes('--verbose');
  const [command, ...rest] = argv.filter((a) => a !== '--verbose');
  const cliLogger = (config: Config) =>
    config.logLevel
      ? createLogger(config.logLevel, secretsOf(env))
      : terminalLogger(io.stderr, { verbose, secrets: secretsOf(env) });
  const withCliStore = (config: Config, run: (store: Store) => Promise<number>) =>
    withStore(config, cliLogger(config), run);
  // `help ask`, `ask --help`: one command's text.
  const topic =
    command === 'help' ? rest[0] : rest.some((a) => a === '--help' || a === '-h') ? command : undefined;
  const help = topic ? commandHelp(topic) : undefined;
  if (help) {
    io.stdout.write(help);
    return 0;
  }
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`deep-research ${VERSION}\n`);
    return 0;
  }
  try {
    if (command === 'where') {
      const { database } = loadConfig(env);
      const where = database.url
        ? `Postgres at ${urlWithoutSecrets(database.url)}`
        : resolve(database.dataDir);
      io.stdout.write(`${where}\n`);
      return 0;
    }
    if (command === 'ask') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          'no-clarify': { type: 'boolean', default: false },
          background: { type: 'boolean', default: false },
          out: { type: 'string' },
          json: { type: 'boolean', default: false },
          yes: { type: 'boolean', short: 'y', default: false },
          backend: { type: 'string' },
          about: { type: 'string' },
        },
      });
      if (values.backend !== undefined && !['agents', 'deep-research-api'].includes(values.backend)) {
        io.stderr.write(`error: --backend must be agents or deep-research-api (got "${values.backend}").\n`);
        return 2;
      }
      const config = loadConfig(values.backend ? { ...env, RESEARCH_BACKEND: values.backend } : env);
      const logger = cliLogger(config);
      const question = positionals.join(' ');
      return await withStore(config, logger, async (store) => {
        // A first-time set-up with no reachable model server fails at once, in one line, instead of retrying.
        const room = composeSessions(config, logger, store, {
          unreachableIsFatal: true,
          newSessionId: randomUUID,
        });
        const requester = userInfo().username;
        if (values.about !== undefined)
          return askAboutCommand(
            { sessions: store.sessions, asking: room.asking, requester },
            values.about,
            question,
            io,
          );
        if (values.background)
          return submitCommand({ ...store, service: room.service, requester }, question, io);
        await room.engine();
        const options = {
          question,
          clarify: !values['no-clarify'],
          out: values.out,
          json: values.json,
          yes: values.yes,
        };
        const deps = {
          research: room.research.current,
          logger,
          newSessionId: randomUUID,
          store: { ...store, service: room.service },
          requester,
          maxQuestionChars: config.slack.maxQuestionChars,
          estimatePlan: room.estimatePlan,
          pager: config.pager,
        };
        return askCommand(deps, options, io);
      });
    }
    if (command === 'find') {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      return await withStore(config, logger, (store) =>
        findCommand(new ReportLibrary({ db: store.db.pool, log: logger }), rest.join(' '), io),
      );
    }
    if (command === 'usage') {
      const config = loadConfig(env);
      return await withCliStore(config, async ({ spend }) => {
        const who = { requester: userInfo().username, teamId: null };
        io.stdout.write(`${await usageSummary(spend, config.jobs.spendCaps, who)}\n`);
        return 0;
      });
    }
    if (command === 'sessions') {
      const [sub, id] = rest;
      const config = loadConfig(env);
      if (sub === 'list') return await withCliStore(config, ({ sessions }) => listSessions(sessions, io));
      if (sub === 'show' && id)
        return await withCliStore(config, (store) => showSession(store, id, io, config.pager));
      io.stderr.write('error: use "deep-research sessions list" or "deep-research sessions show ID".\n');
      return 2;
    }
    if (command === 'worker' || command === 'serve') {
      const config = loadConfig(env);
      const logger = createLogger(config.logLevel ?? 'info', secretsOf(env));
      return await runService(config, logger, io.signal, { mode: command });
    }
    if (command === 'kb') {
      const [sub, ...paths] = rest;
      const config = loadConfig(env);
      const run = (task: (store: KnowledgeStore) => Promise<number>) =>
        withCliStore(config, ({ db }) => task(new KnowledgeStore(db.pool)));
      if (sub === 'ingest') return await run((store) => kbIngest(store, paths, io));
      if (sub === 'list') return await run((store) => kbList(store, io));
      if (sub === 'remove') return await run((store) => kbRemove(store, paths, io));
      io.stderr.write('error: use "deep-research kb ingest PATH...", "kb list" or "kb remove PATH...".\n');
      return 2;
    }
    if (command === 'migrate') {
      const config = loadConfig(env);
      const { db, applied } = await openStore(config, cliLogger(config));
      await db.close();
      io.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'The database is up to date.\n');
      return 0;
    }
    io.stderr.write(`error: unknown command "${command}".\n\n${USAGE}`);
    return 2;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      const first = (error as Error).message.split('. ')[0]!.replace(/\.$/, '');
      io.stderr.write(`error: ${first}. See deep-research help.\n`);
      return 2;
    }
    // Expected failures carry their own sentence; anything else is a bug worth its stack trace in the log.
    if (!(error instanceof AppError)) createLogger('error').error({ err: error }, 'command failed');
    io.stderr.write(`error: ${describeError(error)}\n`);
    // A script reading --json gets the failure on stdout too.
    if (rest.includes('--json'))
      io.stdout.write(`${JSON.stringify({ type: 'error', message: describeError(error) })}\n`);
    return 1;
  }
}

async function withStore(
  config: Config,
  logger: Logger,
  run: (store: Store) => Promise<number>,
): Promise<number> {
  const store = await openStore(config, logger);
  try {
    return await run(store);
  } finally {
    await store.db.close();
  }
}

/** Entry point for the bin: wires process streams and Ctrl-C (once: cancel cleanly; twice: exit now). */
export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping… (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('cancelled by user'));
  });
  process.on('SIGTERM', () => controller.abort(new Error('terminated')));
  // One request or session going wrong must not end a process serving many: log it (with the
  // session it came from, when it came from one) and carry on.
  const env = withEnvFile(process.env, process.cwd());
  const log = createLogger('error', secretsOf(env));
  process.on('unhandledRejection', (reason) =>
    log.error({ err: reason, sessionId: currentSessionId() }, 'unhandled rejection; the process carries on'),
  );
  process.on('uncaughtException', (error) =>
    log.error({ err: error, sessionId: currentSessionId() }, 'uncaught exception; the process carries on'),
  );
  const code = await runCli(process.argv.slice(2), env, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
  process.exit(code);
}
