// The deep-research backend's scheduling: wall time of a task graph against its critical path of hosted
// task durations, API calls per task with polling alone and with OpenAI's webhooks, how late an ended
// request is seen, and how fast a cancel reaches every request in flight.
//   npm run bench:deep-research
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deepResearchBackend } from '../src/backends/deep-research-api/deep-research-backend.js';
import { POLLS } from '../src/engine/hosted-progress.js';
import { openAiWebhookRoute } from '../src/http/openai-webhook-route.js';
import { countTokens } from '../src/llm/count-tokens.js';
import { ResponseEndings } from '../src/llm/response-endings.js';
import { ResponsesApi } from '../src/llm/responses-api.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { fakeResponsesApi } from '../test/fakes/fake-responses-api.js';
import { graph, TaskGraphLlm } from '../test/fakes/task-graph-llm.js';
import { prompts, testSettings } from '../test/helpers/engine-harness.js';
import { fmt, report } from './lib/stats.js';

/** How long each hosted task takes, and the first wait between polls (growing by a tenth). */
const TASK_MS = Number(process.env.DR_TASK_MS ?? 3000);
// 50 ms against 3 s tasks: the proportion of the default 5 s first wait to a 5-minute hosted task.
const POLL_MS = Number(process.env.DR_POLL_MS ?? 50);
// a and b run at once, c waits for a, d for c: the critical path is three tasks long.
const PLAN = graph([
  ['a', 4],
  ['b', 3],
  ['c', 2, ['a']],
  ['d', 1, ['c']],
]);

/** A session on the fake API; with `webhooks`, a receiver on loopback wakes the tasks as `serve` does. */
async function session(hang: boolean, webhooks = false) {
  const fake = await fakeResponsesApi((body) => ({
    ...(hang ? { hang: true } : { endsAfterMs: TASK_MS }),
    answer: `Finding about ${body.metadata.task_id} {{https://${body.metadata.task_id}.example/|${body.metadata.task_id}}}.`,
  }));
  const endings = webhooks ? new ResponseEndings() : undefined;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const receiver = endings
    ? createServer(
        openAiWebhookRoute({ secret, onEnded: (id) => endings.notice(id), log: silentLogger }).route.handler,
      )
    : undefined;
  if (receiver) {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.sendWebhooksTo(
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/openai/webhooks`,
      secret,
    );
  }
  const engine = {
    llm: new TaskGraphLlm([PLAN]),
    prompts,
    countTokens,
    clock: systemClock,
    logger: silentLogger,
  };
  const api = new ResponsesApi({
    apiKey: 'sk-bench',
    baseURL: fake.baseUrl,
    maxRetries: 2,
    timeoutMs: 5000,
    logger: silentLogger,
    endings,
  });
  const research = deepResearchBackend(
    async () => engine,
    testSettings({ timeBudgetMs: 600_000, maxParallelAgents: 3 }),
    api,
    { model: 'gpt-5.5', effort: 'high', maxTasks: 6, taskTimeMs: 600_000, pollMs: POLL_MS },
  );
  const close = async () => {
    await fake.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  };
  return { research, fake, close };
}

async function graphRun(webhooks: boolean) {
  const s = await session(false, webhooks);
  const started = Date.now();
  const outcome = await s.research.run({
    checkpoint: s.research.begin('bench-1', { question: 'Q?', skipClarification: true }),
    emit: () => {},
    saveCheckpoint: async () => {},
    signal: new AbortController().signal,
    logger: silentLogger,
  });
  const wallMs = Date.now() - started;
  const figures = {
    outcome: outcome.kind,
    wallMs,
    creates: s.fake.calls.creates.length / 4,
    retrieves: s.fake.calls.retrieves.length / 4,
    webhooks: s.fake.calls.webhooks.length / 4,
  };
  await s.close();
  return figures;
}

/**
 * What a real task costs in calls at the defaults (first wait 5 s, a tenth longer each time, up to the cap):
 * the reads while it runs and, with polling alone, how late its end can be seen (the wait under way when it
 * ends). With webhooks the end is read at once, one read more.
 */
function schedule(taskMs: number, capMs: number, webhooks: boolean) {
  let t = 0;
  let reads = 1;
  for (let wait = 5000; ; wait = Math.min(wait * POLLS.growth, capMs)) {
    if (t + wait >= taskMs)
      return webhooks ? { reads: reads + 1, lateMs: 0 } : { reads: reads + 1, lateMs: wait };
    t += wait;
    reads += 1;
  }
}

const polled = await graphRun(false);
const woken = await graphRun(true);
const criticalMs = 3 * TASK_MS;

const cancelled = await session(true);
const cancel = new AbortController();
const running = cancelled.research.run({
  checkpoint: cancelled.research.begin('bench-2', { question: 'Q?', skipClarification: true }),
  emit: () => {},
  saveCheckpoint: async () => {},
  signal: cancel.signal,
  logger: silentLogger,
});
while (new Set(cancelled.fake.calls.retrieves).size < 2) await new Promise((r) => setTimeout(r, 10));
const abortedAt = Date.now();
cancel.abort();
while (cancelled.fake.inFlight().length > 0) await new Promise((r) => setTimeout(r, 1));
const cancelMs = Date.now() - abortedAt;
await running;
await cancelled.close();

console.log(
  `deep-research scheduling: 4 tasks (a, b at once; c after a; d after c), each ${TASK_MS} ms, first poll wait ${POLL_MS} ms`,
);
for (const [name, f] of [
  ['polling', polled],
  ['webhooks', woken],
] as const) {
  console.log(`  ${name}`);
  console.log(`    outcome               ${f.outcome}`);
  console.log(
    `    wall ms               ${f.wallMs} (critical path ${criticalMs}, ratio ${fmt(f.wallMs / criticalMs, 3)})`,
  );
  console.log(`    creates per task      ${fmt(f.creates, 2)}`);
  console.log(`    retrieves per task    ${fmt(f.retrieves, 1)}`);
  console.log(`    webhooks per task     ${fmt(f.webhooks, 1)}`);
}
console.log(`  cancel to all cancelled ${cancelMs} ms (2 requests in flight)`);
console.log(
  'a real task at the defaults (first wait 5 s, a tenth longer each time): retrieves, and how late its end is seen',
);
const rows = [2, 5, 10, 20, 30].map((minutes) => {
  const ms = minutes * 60_000;
  const p = schedule(ms, POLLS.maxMs, false);
  const w = schedule(ms, POLLS.maxWithNoticesMs, true);
  console.log(
    `  ${String(minutes).padStart(2)} min   polling ${String(p.reads).padStart(3)} reads, seen up to ${fmt(p.lateMs / 1000, 0).padStart(2)} s late   webhooks ${String(w.reads).padStart(3)} reads + 1 webhook, seen at once`,
  );
  return { minutes, polling: p.reads, pollingLateMaxS: p.lateMs / 1000, webhooks: w.reads + 1 };
});
report('deep-research', {
  taskMs: TASK_MS,
  pollMs: POLL_MS,
  criticalMs,
  polling: polled,
  webhooks: woken,
  cancelMs,
  realTasks: rows,
});
