import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/logger.js';
import type { Llm, LlmPurpose } from '../../src/ports/llm.js';
import type { Logger } from '../../src/ports/logger.js';
import { runService, type ServiceOptions } from '../../src/run-service.js';
import { FINISHED } from '../../src/sessions/records/session-status.js';
import type { ReportPublished } from '../../src/sessions/session-moments.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../fakes/fake-searxng-server.js';
import { type FakeSlack, fakeSlackServer } from '../fakes/fake-slack-server.js';
import { APP_TOKEN, fakeSocketMode } from '../fakes/fake-socket-mode.js';
import { realPostgres } from './postgres.js';
import { BOT_TOKEN, SIGNING_SECRET } from './slack-requests.js';

/**
 * The real `serve` composition (config → Bolt app + worker + publisher →
 * Postgres) against in-repo fakes: Slack's Web API, an OpenAI-compatible
 * model server driven by a fake model, and a SearXNG-style search endpoint.
 */
export async function slackHarness(
  llm: Llm,
  extraEnv: Record<string, string> = {},
  options: {
    localPages?: boolean;
    /** What each topic's page says (see fakeSearxngServer). */
    pageText?: Record<string, string[]>;
    socketMode?: boolean;
    /** The model server answers these calls with truncated JSON (see fakeOpenAiServer). */
    garbage?: (purpose: LlmPurpose) => boolean;
    /** The model server behaves as OpenAI's does today (Responses API; no tools on Chat Completions for gpt-5.4+). */
    openai?: boolean;
    /** The time schedules are read in, and how often the scheduler looks (see ServiceOptions.scheduler). */
    scheduler?: ServiceOptions['scheduler'];
  } = {},
) {
  const slack = await fakeSlackServer();
  // Socket Mode: Slack's events arrive over a websocket the app opens, not as HTTP requests.
  const socket = options.socketMode ? await fakeSocketMode() : undefined;
  if (socket) slack.serveSocketMode(APP_TOKEN, socket.url);
  const model = await fakeOpenAiServer(llm, { garbage: options.garbage, openai: options.openai });
  const search = await fakeSearxngServer(options);
  const db = await realPostgres();
  await db.close();
  const env = {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: model.baseUrl,
    RESEARCH_MODEL: 'gpt-4.1',
    SEARXNG_URL: search.url,
    DATABASE_URL: db.url,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    LEASE_SECONDS: '5',
    LOG_LEVEL: 'silent',
    // Research starts as soon as its plan is written, unless a test reviews plans.
    PLAN_REVIEW_SECONDS: '0',
    ...(options.localPages ? { ALLOW_PRIVATE_URLS: 'true' } : {}),
    ...(socket ? { SLACK_APP_TOKEN: APP_TOKEN } : {}),
    ...extraEnv,
  };
  const servers: { stop: () => Promise<void> }[] = [];
  /** Reports the serve processes announced as published (the session room's moment). */
  const published: ReportPublished[] = [];
  /** Warnings and errors the serve processes logged. */
  const logs: LoggedLine[] = [];

  /** Starts one `serve` process-equivalent; several may run against the same database. */
  async function start(): Promise<{ url: string; stop: () => Promise<void> }> {
    const config = loadConfig(env);
    const logger = recording(createLogger(env.LOG_LEVEL), logs);
    const controller = new AbortController();
    let listening!: (port: number | undefined) => void;
    const port = new Promise<number | undefined>((resolve) => {
      listening = resolve;
    });
    const done = runService(config, logger, controller.signal, {
      mode: 'serve',
      editIntervalMs: 150,
      pollMs: 50,
      onListening: listening,
      subscribe: (moments) => moments.onReportPublished((m) => void published.push(m)),
      ...(options.scheduler && { scheduler: options.scheduler }),
    });
    const ended = done.then(() => Promise.reject(new Error('serve ended before it listened')));
    const server = {
      url: `http://127.0.0.1:${await Promise.race([port, ended])}/slack/events`,
      stop: async () => {
        controller.abort();
        await done;
      },
    };
    servers.push(server);
    return server;
  }

  return {
    slack,
    /** The Socket Mode end, when the harness was made with `socketMode`. */
    socket,
    search,
    model,
    env,
    published,
    logs,
    start,
    async close() {
      for (const s of servers.splice(0)) await s.stop().catch(() => {});
      await Promise.all([slack.close(), model.close(), search.close(), socket?.close()]);
    },
  };
}

export type SlackHarness = Awaited<ReturnType<typeof slackHarness>>;

export interface LoggedLine {
  level: 'warn' | 'error';
  msg: string;
  fields: Record<string, unknown>;
}

/** `logger`, with its warnings and errors (and its children's) also kept in `lines`. */
function recording(logger: Logger, lines: LoggedLine[], bound: Record<string, unknown> = {}): Logger {
  const keep = (level: LoggedLine['level']) => (obj: object, msg?: string) => {
    lines.push({ level, msg: msg ?? '', fields: { ...bound, ...obj } });
    logger[level](obj, msg);
  };
  return {
    info: (obj, msg) => logger.info(obj, msg),
    warn: keep('warn'),
    error: keep('error'),
    child: (bindings) => recording(logger.child(bindings), lines, { ...bound, ...bindings }),
  };
}

export type { FakeSlack };

/** Polls until `check` returns something truthy; `what` (or what it says at the end) names it if it never does. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what: string | (() => string) = 'condition',
): Promise<NonNullable<T>> {
  const started = Date.now();
  // Never less than 30 s: a wait costs nothing while things go well, and a busy two-core machine is slow.
  const patience = Math.max(timeoutMs, 30_000);
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > patience)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Rows of a query on the harness's database, for assertions. */
export async function queryRows<T>(h: SlackHarness, sql: string, params: unknown[] = []): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: h.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Sessions as the database has them, for assertions. */
export function storedSessions(h: SlackHarness): Promise<
  {
    id: string;
    status: string;
    turn: number;
    question: string;
    delivery_note: string | null;
    has_report: boolean;
  }[]
> {
  return queryRows(
    h,
    `SELECT id, status, turn, question, delivery_note, report IS NOT NULL AS has_report
     FROM sessions ORDER BY created_at`,
  );
}

/**
 * Sessions once every one (or the one `id` names) is at rest: a Slack report
 * stays `delivering` until its last write (the agent status closed, after the
 * reaction) is done.
 */
export function sessionsAtRest(h: SlackHarness, id?: string): ReturnType<typeof storedSessions> {
  return eventually(
    async () => {
      const rows = (await storedSessions(h)).filter((r) => id === undefined || r.id === id);
      const atRest = rows.every((r) => (FINISHED as readonly string[]).includes(r.status));
      return rows.length > 0 && atRest ? rows : undefined;
    },
    30_000,
    id ? `session ${id} at rest` : 'the sessions at rest',
  );
}
