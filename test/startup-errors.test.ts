import { type AddressInfo, createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { runCli } from '../src/main.js';
import type { Logger } from '../src/ports/logger.js';
import { runService } from '../src/run-service.js';
import { type FakeSlack, fakeSlackServer } from './fakes/fake-slack-server.js';
import { io } from './helpers/io.js';
import { realPostgres } from './helpers/postgres.js';
import { BOT_TOKEN, SIGNING_SECRET } from './helpers/slack-requests.js';
import { throwawayCluster } from './helpers/throwaway-cluster.js';

const run = async (env: Record<string, string>, ...argv: string[]) => {
  const streams = io();
  const code = await runCli(argv, env, streams);
  return { code, err: streams.err.text };
};

/** A logger that keeps what it was told, for the one-line-per-attempt checks. */
function recordingLogger(lines: { level: string; msg: string; cause?: unknown }[]): Logger {
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      lines.push({ level, msg, cause: (obj as { cause?: unknown }).cause });
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `serve` needs, on the database at `url`: no model or search server is reached in these tests. */
function serveEnv(url: string, more: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: url,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: 'http://127.0.0.1:59998/v1',
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: 'http://127.0.0.1:59999/',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    ...more,
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('start-up errors name the fix in one line', () => {
  it('a database nobody answers at', async () => {
    const { code, err } = await run(
      { DATABASE_URL: 'postgres://u:hunter2pw@127.0.0.1:1/app' },
      'sessions',
      'list',
    );
    expect(code).toBe(1);
    expect(err).toBe(
      'error: The database at 127.0.0.1:1/app cannot be reached (ECONNREFUSED); start it or fix the host and port in DATABASE_URL.\n',
    );
  });

  it('a database that does not exist, and a role that does not', async () => {
    const db = await realPostgres();
    await db.close();
    const missing = new URL(db.url);
    missing.pathname = '/no_such_database_here';
    const a = await run({ DATABASE_URL: missing.toString() }, 'sessions', 'list');
    expect(a.code).toBe(1);
    expect(a.err).toMatch(
      /^error: DATABASE_URL names a database that does not exist \(database "no_such_database_here" does not exist\); create it or fix the name in DATABASE_URL\.\n$/,
    );
    const stranger = new URL(db.url);
    stranger.username = 'nobody_here';
    const b = await run({ DATABASE_URL: stranger.toString() }, 'sessions', 'list');
    expect(b.err).toMatch(
      /^error: DATABASE_URL was refused by .*role "nobody_here" does not exist; fix the user or password in DATABASE_URL\.\n$/,
    );
  });

  it('an OpenAI base URL without a scheme', async () => {
    const { code, err } = await run({ OPENAI_BASE_URL: 'localhost:11434' }, 'ask', 'What is up?');
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain('OPENAI_BASE_URL is invalid');
  });
});

describe('serve and worker wait for what is not up yet', () => {
  let slack: FakeSlack | undefined;
  afterAll(async () => slack?.close());

  it('retries an unreachable database with one line per attempt, then starts', async () => {
    const cluster = await throwawayCluster();
    try {
      cluster.stop();
      const lines: { level: string; msg: string; cause?: unknown }[] = [];
      const config = loadConfig({
        DATABASE_URL: cluster.url,
        OPENAI_API_KEY: 'sk-test',
        SEARCH_PROVIDER: 'searxng',
        SEARXNG_URL: 'http://127.0.0.1:59999/', // never reached here
      });
      const stop = new AbortController();
      const done = runService(config, recordingLogger(lines), stop.signal, { mode: 'worker', pollMs: 50 });
      await until(() => lines.filter((l) => l.level === 'warn').length >= 2, 'two attempts');
      const attempts = lines.filter((l) => l.level === 'warn');
      expect(attempts[0]).toMatchObject({
        msg: expect.stringMatching(
          /^the database at 127\.0\.0\.1:\d+\/postgres cannot be reached; retrying$/,
        ),
        cause: 'ECONNREFUSED',
      });
      cluster.start();
      await until(() => lines.some((l) => l.msg === 'started'), 'started');
      stop.abort();
      expect(await done).toBe(0);
    } finally {
      cluster.destroy();
    }
  }, 60_000);

  it('serve answers /healthz from its first second: not ready and why, then ready', async () => {
    const cluster = await throwawayCluster();
    slack ??= await fakeSlackServer();
    try {
      cluster.stop();
      slack.fault({ methods: ['auth.test'], error: 'network', forMs: 120_000 });
      const port = await closedPort();
      const health = async () => {
        await new Promise((r) => setTimeout(r, 50));
        const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return res && { code: res.status, ...((await res.json()) as { status: string; reason?: string }) };
      };
      const stop = new AbortController();
      const started = Date.now();
      const done = runService(
        loadConfig(serveEnv(cluster.url, { SLACK_API_URL: slack.apiUrl, PORT: String(port) })),
        recordingLogger([]),
        stop.signal,
        { mode: 'serve', pollMs: 50 },
      );
      let seen = await health();
      for (; !seen?.reason?.includes('database'); seen = await health())
        if (Date.now() - started > 30_000) throw new Error(`no "database" in ${JSON.stringify(seen)}`);
      expect(seen).toEqual({
        code: 503,
        status: 'not ready',
        reason: expect.stringMatching(
          /^the database at 127\.0\.0\.1:\d+\/postgres cannot be reached \(ECONNREFUSED\); retrying$/,
        ),
      });
      // Slack's events are turned away meanwhile, for Slack to retry.
      const event = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '{}' });
      expect(event.status).toBe(503);
      cluster.start();
      for (seen = await health(); !seen?.reason?.startsWith('Slack'); seen = await health())
        if (Date.now() - started > 60_000) throw new Error(`no "Slack" in ${JSON.stringify(seen)}`);
      expect(seen.reason).toMatch(/^Slack cannot be reached \(.+\); retrying$/);
      slack.clearFaults();
      for (seen = await health(); seen?.code !== 200; seen = await health())
        if (Date.now() - started > 90_000) throw new Error(`not ready: ${JSON.stringify(seen)}`);
      expect(seen).toMatchObject({ code: 200, status: 'ok' });
      stop.abort();
      expect(await done).toBe(0);
    } finally {
      slack.clearFaults();
      cluster.destroy();
    }
  }, 120_000);

  it('serve says in one line when its port is taken', async () => {
    const db = await realPostgres();
    await db.close();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const config = loadConfig(serveEnv(db.url, { PORT: String(port) }));
      await expect(
        runService(config, recordingLogger([]), new AbortController().signal, { mode: 'serve' }),
      ).rejects.toThrow(
        `Port ${port} is already in use: stop what listens there, or set PORT to a free port.`,
      );
    } finally {
      taken.close();
    }
  });

  it('retries Slack when it cannot be reached at start, and refuses a revoked token in one line', async () => {
    const db = await realPostgres();
    await db.close();
    const env = serveEnv(db.url, { SLACK_API_URL: `http://127.0.0.1:${await closedPort()}/api/`, PORT: '0' });
    const lines: { level: string; msg: string; cause?: unknown }[] = [];
    const stop = new AbortController();
    const done = runService(loadConfig(env), recordingLogger(lines), stop.signal, {
      mode: 'serve',
      pollMs: 50,
    });
    await until(
      () => lines.filter((l) => l.msg === 'Slack cannot be reached; retrying').length >= 2,
      'two attempts',
    );
    // The network's own cause, not the Slack client's wrapper code.
    expect(lines.find((l) => l.msg === 'Slack cannot be reached; retrying')?.cause).toBe('ECONNREFUSED');
    stop.abort();
    expect(await done).toBe(0);

    slack ??= await fakeSlackServer();
    slack.fault({ methods: ['auth.test'], error: 'token_revoked', forMs: 60_000 });
    await expect(
      runService(
        loadConfig({ ...env, SLACK_API_URL: slack.apiUrl }),
        recordingLogger([]),
        new AbortController().signal,
        { mode: 'serve' },
      ),
    ).rejects.toThrow(/^Slack refused SLACK_BOT_TOKEN \(token_revoked\); copy the Bot User OAuth Token/);
  }, 60_000);
});
