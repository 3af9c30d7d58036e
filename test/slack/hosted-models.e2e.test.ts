import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { runCli } from '../../src/main.js';
import { silentLogger } from '../../src/ports/logger.js';
import { runService } from '../../src/run-service.js';
import {
  CURRENT_MODELS,
  type FakeModel,
  type FakeResponsesOptions,
  fakeResponsesApi,
  type HostedScript,
  signWebhook,
} from '../fakes/fake-responses-api.js';
import { render } from '../fakes/fake-slack-server.js';
import { graph, TaskGraphLlm } from '../fakes/task-graph-llm.js';
import { io } from '../helpers/io.js';
import {
  eventually,
  type SlackHarness,
  sessionsAtRest,
  slackHarness,
  storedSessions,
} from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
let fake: Awaited<ReturnType<typeof fakeResponsesApi>> | undefined;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

let tsCounter = 0;
const userTs = () => `1800001900.${String(++tsCounter).padStart(6, '0')}`;
const PLAN = graph([
  ['costs', 2],
  ['grants', 1],
]);
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** The fakes and the harness, with the hosted backend current; nothing started yet. */
async function prepare(
  script: (task: string) => HostedScript,
  env: Record<string, string> = {},
  options: FakeResponsesOptions = {},
) {
  fake = await fakeResponsesApi((body) => script(body.metadata.task_id!), options);
  h = await slackHarness(new TaskGraphLlm([PLAN]), {
    RESEARCH_BACKEND: 'deep-research-api',
    DEEP_RESEARCH_BASE_URL: fake.baseUrl,
    DEEP_RESEARCH_POLL_SECONDS: '0.05',
    ...env,
  });
  return { fake: fake!, h: h! };
}

async function serve(
  script: (task: string) => HostedScript,
  env: Record<string, string> = {},
  options: FakeResponsesOptions = {},
) {
  const prepared = await prepare(script, env, options);
  return { ...prepared, app: await prepared.h.start() };
}

async function ask(app: { url: string }, question = 'Heat pumps or gas boilers?'): Promise<string> {
  const ts = userTs();
  await signedPost(
    app.url,
    eventCallback({ type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${question}`, ts }),
    JSON_TYPE,
  );
  return ts;
}

const healthz = async (app: { url: string }) =>
  (await (await fetch(app.url.replace('/slack/events', '/healthz'))).json()) as {
    status: string;
    models: { problems: string[]; warnings: string[] };
    openaiWebhooks?: { received: number; refused: number; duplicates: number; ended: number };
  };

/** The status a POST gets, read as soon as it comes (a refusal may come before the whole body is sent). */
function statusOf(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The server may close the connection while the body is still going out: the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 1000));
    req.end(body);
  });
}

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('hosted research on the models that exist', () => {
  it('researches with the defaults against a server that refuses the shut-down models and lists current ones', async () => {
    const { app, fake, h } = await serve((task) => ({
      searches: [`${task} 2025`],
      answer: `Finding about ${task} {{https://${task}.example/page|${task}}}.`,
    }));
    const ts = await ask(app);
    await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'done');
    // The default model is one the server lists, asked for with the current tool and a reasoning effort.
    expect(fake.calls.creates.map((c) => [c.model, c.tools, c.reasoning])).toEqual([
      ['gpt-5.5', [{ type: 'web_search' }], { effort: 'high', summary: 'auto' }],
      ['gpt-5.5', [{ type: 'web_search' }], { effort: 'high', summary: 'auto' }],
    ]);
    expect(h.slack.canvases[0]!.markdown).toContain('Finding about costs [[1](https://costs.example/page)].');
    const health = await healthz(app);
    expect(health.status).toBe('ok');
    // The research model's server has no Responses API: /healthz says which API it is called on, and why.
    expect(health.models).toEqual({
      problems: [],
      warnings: [],
      apis: { 'gpt-4.1': 'Chat Completions (the server has no Responses API (HTTP 404))' },
    });
  }, 90_000);

  it('names a shut-down model to the person, in the log at start and in /healthz, instead of a generic failure', async () => {
    const { app, fake, h } = await serve(() => ({ answer: 'never' }), {
      DEEP_RESEARCH_MODEL: 'o4-mini-deep-research',
      MODEL_PRICES: '{"o4-mini-deep-research":{"input":2,"output":8}}',
    });
    const sentence = `The model server at ${fake.baseUrl} does not offer o4-mini-deep-research (it was shut down on 2026-07-23), which DEEP_RESEARCH_MODEL names: set DEEP_RESEARCH_MODEL to a model it offers (gpt-5.5-pro, gpt-5.5, gpt-5.4-mini, gpt-5.4, gpt-5.1).`;
    // At start, before anyone asks.
    await eventually(
      () => h.logs.some((l) => l.level === 'warn' && l.msg === sentence),
      10_000,
      'the start-up warning',
    );
    expect((await healthz(app)).models.problems).toEqual([sentence]);
    const ts = await ask(app);
    const notice = await eventually(
      () =>
        h.slack
          .thread('C1', ts)
          .map(render)
          .find((text) => text.startsWith(':x:')),
      30_000,
      'the failure in the thread',
    );
    const [session] = await storedSessions(h);
    expect(notice).toBe(`:x: The research failed: ${sentence} (session ${session!.id})`);
    // The server answered 404 model_not_found to each create it got; nothing is left running there.
    expect(fake.calls.creates.length).toBeGreaterThanOrEqual(1);
    expect(fake.inFlight()).toEqual([]);
    const health = await healthz(app);
    expect(health.status).toBe('degraded');
    expect(health.models.problems).toEqual([sentence]);
  }, 60_000);

  it('warns at start and in /healthz of a model whose shutdown is less than 60 days away', async () => {
    const soon = dayFromNow(20);
    const models: FakeModel[] = CURRENT_MODELS.map((m) =>
      m.id === 'gpt-5.5' ? { ...m, shutdown_date: soon } : m,
    );
    const { app, fake, h } = await serve(() => ({}), {}, { models });
    const warning = `gpt-5.5 (DEEP_RESEARCH_MODEL) shuts down on ${soon}, in 20 days, at ${fake.baseUrl}: set DEEP_RESEARCH_MODEL to a current model before then.`;
    await eventually(() => h.logs.some((l) => l.msg === warning), 10_000, 'the start-up warning');
    const health = await healthz(app);
    expect(health.models.warnings).toEqual([warning]);
    // A warning is not a failure: the app is not degraded by it.
    expect(health.status).toBe('ok');
  });
});

describe('completion by webhook', () => {
  it('wakes the task on OpenAI’s signed webhook instead of its next poll, and refuses forged, replayed and oversized ones', async () => {
    // Polls 60 s apart: without the webhook each task would wait a minute after it ended.
    const { app, fake, h } = await serve(
      (task) => ({
        endsAfterMs: 400,
        searches: [`${task} 2025`],
        answer: `Finding about ${task} {{https://${task}.example/page|${task}}}.`,
      }),
      { OPENAI_WEBHOOK_SECRET: SECRET, DEEP_RESEARCH_POLL_SECONDS: '60' },
    );
    const hook = app.url.replace('/slack/events', '/openai/webhooks');
    fake.sendWebhooksTo(hook, SECRET);
    const started = Date.now();
    const ts = await ask(app);
    await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 45_000, 'done');
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(fake.calls.webhooks.map((w) => [w.type, w.status])).toEqual([
      ['response.completed', 200],
      ['response.completed', 200],
    ]);
    // One read when the request was created, one when the webhook said it ended: two per task.
    expect(fake.calls.retrieves).toHaveLength(4);

    const post = (body: string, headers: Record<string, string>) =>
      fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const event = (id: string) =>
      JSON.stringify({
        object: 'event',
        id: 'evt_1',
        type: 'response.completed',
        created_at: 1,
        data: { id },
      });
    // No signature: refused before the body is read.
    expect((await post(event('resp_x'), {})).status).toBe(401);
    // Signed with another secret, or stamped outside the five minutes.
    const forged = signWebhook(`whsec_${randomBytes(24).toString('base64')}`, event('resp_x'));
    expect((await post(event('resp_x'), forged)).status).toBe(400);
    const stale = signWebhook(SECRET, event('resp_x'), { at: Math.floor(Date.now() / 1000) - 600 });
    expect((await post(event('resp_x'), stale)).status).toBe(401);
    // Over 64 KiB.
    const big = `${event('resp_x').slice(0, -1)},"pad":"${'x'.repeat(70_000)}"}`;
    expect(await statusOf(hook, big, signWebhook(SECRET, big))).toBe(413);
    // A valid webhook for a request this process does not own: answered, and nothing is read for it.
    const reads = fake.calls.retrieves.length;
    const foreign = signWebhook(SECRET, event('resp_not_ours'));
    expect((await post(event('resp_not_ours'), foreign)).status).toBe(200);
    // The same delivery again (a replay within the window): answered, acted on once.
    expect((await post(event('resp_not_ours'), foreign)).status).toBe(200);
    expect(fake.calls.retrieves).toHaveLength(reads);
    const health = await healthz(app);
    expect(health.openaiWebhooks).toEqual({ received: 8, refused: 4, duplicates: 1, ended: 3 });
    expect((await sessionsAtRest(h))[0]!.status).toBe('done');
  }, 90_000);

  it('wakes a task run by another process: the webhook reaches serve, Postgres tells the worker that owns it', async () => {
    const { fake: hosted, h: harness } = await prepare(
      (task) => ({
        endsAfterMs: 1500,
        answer: `Finding about ${task} {{https://${task}.example/page|${task}}}.`,
      }),
      { OPENAI_WEBHOOK_SECRET: SECRET, DEEP_RESEARCH_POLL_SECONDS: '60' },
    );
    // Only a worker runs at first: it takes the queued session and creates its tasks.
    const stop = new AbortController();
    const worker = runService(loadConfig(harness.env), silentLogger, stop.signal, {
      mode: 'worker',
      pollMs: 50,
    });
    try {
      const submitted = io();
      expect(await runCli(['ask', '--background', 'Heat pumps or gas?'], harness.env, submitted)).toBe(0);
      await eventually(() => hosted.calls.creates.length === 2, 30_000, 'the worker to create both tasks');
      // Then serve starts, and OpenAI's webhooks reach it, not the worker.
      const app = await harness.start();
      const started = Date.now();
      hosted.sendWebhooksTo(app.url.replace('/slack/events', '/openai/webhooks'), SECRET);
      await eventually(async () => (await storedSessions(harness))[0]?.status === 'done', 45_000, 'done');
      // Without the notice the worker would have read the tasks again only after a minute.
      expect(Date.now() - started).toBeLessThan(45_000);
      expect(hosted.calls.webhooks.map((w) => w.status)).toEqual([200, 200]);
      expect((await healthz(app)).openaiWebhooks).toMatchObject({ ended: 2, refused: 0 });
    } finally {
      stop.abort();
      await worker;
    }
  }, 90_000);
});
