import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Llm } from '../../src/ports/llm.js';
import { fakeOpenAiServer } from '../../test/fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../../test/fakes/fake-searxng-server.js';
import { fakeSlackServer } from '../../test/fakes/fake-slack-server.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../../test/helpers/slack-requests.js';
import { benchDatabase } from './bench-database.js';

/**
 * `deep-research serve` in its own process, as in production, against the
 * benchmark's fakes; resolves once /healthz answers. BENCH_APP_NODE_FLAGS
 * (e.g. "--cpu-prof") profiles it.
 */
export async function startServe(options: {
  modelUrl: string;
  searchUrl: string;
  databaseUrl: string;
  slackApiUrl: string;
  /** MAX_CONCURRENT_SESSIONS; unset keeps the app's default. */
  concurrentSessions?: number;
  env?: Record<string, string>;
}): Promise<{ app: ChildProcess; url: string; health: string }> {
  const port = await freePort();
  const flags = process.env.BENCH_APP_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const app = spawn(
    process.execPath,
    [...flags, join(import.meta.dirname, '../../bin/deep-research.js'), 'serve'],
    {
      env: {
        ...process.env,
        OPENAI_API_KEY: 'sk-bench',
        OPENAI_BASE_URL: options.modelUrl,
        RESEARCH_MODEL: 'gpt-4.1',
        SEARCH_PROVIDER: 'searxng',
        SEARXNG_URL: options.searchUrl,
        DATABASE_URL: options.databaseUrl,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: options.slackApiUrl,
        PORT: String(port),
        ...(options.concurrentSessions
          ? { MAX_CONCURRENT_SESSIONS: String(options.concurrentSessions) }
          : {}),
        MAX_SESSIONS_PER_USER: '1',
        // The benchmarks measure the pipeline: research starts as soon as its plan is written.
        PLAN_REVIEW_SECONDS: '0',
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const health = `http://127.0.0.1:${port}/healthz`;
  await waitUntil(
    async () => (await fetch(health).catch(() => null))?.ok ?? false,
    60_000,
    'the app to start',
  );
  return { app, url: `http://127.0.0.1:${port}/slack/events`, health };
}

/**
 * A throwaway database, the fake Slack, model (answering with `llm`) and
 * search servers, and `serve` against them; `stop` ends and removes them all.
 */
export async function serveWithFakes(
  name: string,
  llm: Llm,
  options: {
    slack?: Parameters<typeof fakeSlackServer>[0];
    concurrentSessions?: number;
    env?: Record<string, string>;
  } = {},
) {
  const database = await benchDatabase(name);
  const slack = await fakeSlackServer(options.slack);
  const model = await fakeOpenAiServer(llm);
  const search = await fakeSearxngServer();
  const serve = await startServe({
    modelUrl: model.baseUrl,
    searchUrl: search.url,
    databaseUrl: database.url,
    slackApiUrl: slack.apiUrl,
    concurrentSessions: options.concurrentSessions,
    env: options.env,
  });
  return {
    ...serve,
    slack,
    database,
    async stop() {
      serve.app.kill('SIGTERM');
      await new Promise((resolve) => serve.app.once('exit', resolve));
      await Promise.all([slack.close(), model.close(), search.close()]);
      await database.drop();
    },
  };
}

export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const begin = Date.now();
  while (!(await check())) {
    if (Date.now() - begin > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
