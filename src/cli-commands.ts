import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { auditCommand, sinceOf } from './cli/audit-command.js';
import type { CommandSpec } from './cli/commands.js';
import { deleteCommand } from './cli/delete-command.js';
import { doctorCommand } from './cli/doctor-command.js';
import { findCommand } from './cli/find-command.js';
import type { Io } from './cli/io.js';
import { kbIngest, kbList, kbRemove } from './cli/kb-command.js';
import { mcpList } from './cli/mcp-command.js';
import { outPathProblem } from './cli/out-path.js';
import { policyCommand } from './cli/policy-command.js';
import { scheduleCommand } from './cli/schedule-command.js';
import { listSessions, showSession } from './cli/sessions-command.js';
import { askFromCli, sessionActionFromCli } from './cli-research.js';
import { apiProbe, modelLifecycle } from './compose.js';
import { composeSessions } from './compose-sessions.js';
import { openStore, withStore } from './compose-store.js';
import { type Config, loadConfig } from './config/load-config.js';
import { createLogger } from './logger.js';
import type { Logger } from './ports/logger.js';
import { secretsOf, urlWithoutSecrets } from './redact-secrets.js';
import { knowledgeLibrary } from './search/knowledge/ingest-documents.js';
import { McpTools } from './search/mcp/mcp-tools.js';
import { DocumentReader } from './search/read/document-reader.js';
import type { Store } from './sessions/records/store.js';
import { ReportLibrary } from './sessions/report-library.js';
import { usageSummary } from './sessions/spend-caps.js';

/** Commands that take exactly one session id. */
const ONE_ID = new Set([
  'sessions show',
  'resume',
  'cancel',
  'more',
  'schedule pause',
  'schedule resume',
  'schedule remove',
]);
/**
 * Commands over in a moment, which may use an embedded database another
 * process has open (through it); `ask` decides for itself (--background and
 * --about are short).
 */
const SHORT = new Set([
  'cancel',
  'sessions list',
  'sessions show',
  'usage',
  'audit',
  'find',
  'kb list',
  'kb remove',
  'schedule add',
  'schedule change',
  'schedule list',
  'schedule pause',
  'schedule resume',
  'schedule remove',
  'policy list',
  'policy show',
  'policy set',
  'policy clear',
  'sessions delete',
]);

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
  // A short command may use an embedded database another process has open; a long one must open it itself.
  const use = { join: SHORT.has(command), command };
  const withCliStore = (config: Config, run: (store: Store) => Promise<number>) =>
    withStore(config, cliLogger(config), use, run);
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
      return withStore(config, logger, use, (store) =>
        findCommand(new ReportLibrary({ db: store.db.pool, log: logger }), positionals.join(' '), io),
      );
    }
    case 'audit': {
      const config = loadConfig(env);
      const since = sinceOf(text('since'), new Date());
      if (typeof since === 'string') return refuse(since);
      const format = flags.csv ? 'csv' : flags.json ? 'json' : 'table';
      const query = { since, channelId: text('channel'), actor: text('user') };
      return withCliStore(config, ({ audit }) => auditCommand(audit, query, format, io));
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
      return withStore(config, logger, use, (store) => {
        const room = composeSessions(config, logger, store, { newSessionId: randomUUID });
        return showSession(store, positionals[0]!, io, {
          pager: config.pager,
          json: Boolean(flags.json),
          out,
          view: (id) => room.service.view(id),
          exportFile: (row, format) => room.exports.file(row, format),
        });
      });
    }
    case 'worker':
    case 'serve': {
      const config = loadConfig(env);
      const logger = createLogger(config.logLevel ?? 'info', secretsOf(env));
      // The Slack app and the worker load only for the commands that run them.
      const { runService } = await import('./run-service.js');
      return runService(config, logger, io.signal, { mode: spec.name as 'worker' | 'serve' });
    }
    case 'kb ingest':
    case 'kb list':
    case 'kb remove': {
      const config = loadConfig(env);
      return withCliStore(config, ({ knowledge: store }) => {
        // Listing and removing read no document: the reader's threads start only to ingest.
        let reader: DocumentReader | undefined;
        const library = knowledgeLibrary({
          store,
          get reader() {
            reader ??= new DocumentReader(config.reading);
            return reader;
          },
        });
        if (spec.sub === 'ingest') return kbIngest(library, positionals, io);
        if (spec.sub === 'remove') return kbRemove(library, positionals, io);
        return kbList(library, io);
      });
    }
    case 'resume':
    case 'cancel':
    case 'more':
      return sessionActionFromCli(
        command,
        positionals[0]!,
        { answers: text('answers'), out, json: Boolean(flags.json), yes: Boolean(flags.yes) },
        env,
        io,
        cliLogger,
      );
    case 'doctor': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      const models = modelLifecycle(config, { allBackends: true, logger });
      return doctorCommand(models, io, Boolean(flags.json), apiProbe(config, models, logger));
    }
    case 'mcp list': {
      const config = loadConfig(env);
      return mcpList(
        config.mcp.servers.length
          ? new McpTools(config.mcp.servers, config.mcp.timeoutMs, cliLogger(config))
          : undefined,
        io,
      );
    }
    case 'schedule add':
    case 'schedule change':
    case 'schedule list':
    case 'schedule pause':
    case 'schedule resume':
    case 'schedule remove': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      return withStore(config, logger, use, (store) => {
        const { schedules } = composeSessions(config, logger, store, { newSessionId: randomUUID });
        const deps = {
          schedules,
          owner: userInfo().username,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        };
        return scheduleCommand(
          deps,
          spec.sub!,
          positionals,
          { tz: text('tz'), json: Boolean(flags.json) },
          io,
        );
      });
    }
    case 'policy list':
    case 'policy show':
    case 'policy set':
    case 'policy clear': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      return withStore(config, logger, use, (store) => {
        const { policies } = composeSessions(config, logger, store, { newSessionId: randomUUID });
        const options = {
          team: text('team'),
          json: Boolean(flags.json),
          actor: `cli:${userInfo().username}`,
          teams: () => store.policies.teams(),
        };
        return policyCommand(policies, spec.sub!, positionals, options, io);
      });
    }
    case 'sessions delete': {
      const config = loadConfig(env);
      const logger = cliLogger(config);
      if (positionals.length > 1 || (positionals.length === 1) === Boolean(text('user')))
        return refuse('use "deep-research sessions delete ID" or "deep-research sessions delete --user ID"');
      return withStore(config, logger, use, (store) => {
        const { deletion } = composeSessions(config, logger, store, { newSessionId: randomUUID });
        const find = (prefix: string) => store.sessions.findByIdPrefix(prefix);
        const target = { id: positionals[0], user: text('user') };
        return deleteCommand(deletion, find, target, `cli:${userInfo().username}`, io);
      });
    }
    case 'migrate': {
      const config = loadConfig(env);
      const { db, applied } = await openStore(config, cliLogger(config), use);
      await db.close();
      io.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'The database is up to date.\n');
      return 0;
    }
  }
  throw new Error(`no handler for ${spec.name}`);
}
