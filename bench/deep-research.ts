// The deep-research backend's scheduling: wall time of a task graph against its critical path of hosted
// task durations, polls and creates per task, and how fast a cancel reaches every request in flight.
//   npm run bench:deep-research
import { deepResearchBackend } from '../src/engine/deep-research/deep-research-backend.js';
import { countTokens } from '../src/llm/count-tokens.js';
import { ResponsesApi } from '../src/llm/responses-api.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { fakeResponsesApi } from '../test/fakes/fake-responses-api.js';
import { graph, TaskGraphLlm } from '../test/fakes/task-graph-llm.js';
import { prompts, testSettings } from '../test/helpers/engine-harness.js';
import { fmt, report } from './lib/stats.js';

/** How long each hosted task takes, and the first wait between polls (doubling to 30 s). */
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

async function session(hang: boolean) {
  const created = new Map<string, number>();
  const fake = await fakeResponsesApi((body) => {
    created.set(body.metadata.task_id!, Date.now());
    return {
      get hang() {
        return hang || Date.now() - created.get(body.metadata.task_id!)! < TASK_MS;
      },
      answer: `Finding about ${body.metadata.task_id} {{https://${body.metadata.task_id}.example/|${body.metadata.task_id}}}.`,
    };
  });
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
  });
  const research = deepResearchBackend(
    async () => engine,
    testSettings({ timeBudgetMs: 600_000, maxParallelAgents: 3 }),
    api,
    {
      model: 'o4-mini-deep-research',
      maxTasks: 6,
      taskTimeMs: 600_000,
      pollMs: POLL_MS,
    },
  );
  return { research, fake };
}

const { research, fake } = await session(false);
const started = Date.now();
const outcome = await research.run({
  checkpoint: research.begin('bench-1', { question: 'Q?', skipClarification: true }),
  emit: () => {},
  saveCheckpoint: async () => {},
  signal: new AbortController().signal,
  logger: silentLogger,
});
const wallMs = Date.now() - started;
const criticalMs = 3 * TASK_MS;
const polls = fake.calls.retrieves.length / fake.calls.creates.length;
await fake.close();

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
await cancelled.fake.close();

console.log(
  `deep-research scheduling: 4 tasks (a, b at once; c after a; d after c), each ${TASK_MS} ms, first poll wait ${POLL_MS} ms`,
);
console.log(`  outcome                 ${outcome.kind}`);
console.log(`  wall ms                 ${wallMs}`);
console.log(`  critical path ms        ${criticalMs}`);
console.log(`  ratio                   ${fmt(wallMs / criticalMs, 3)}`);
console.log(`  creates per task        ${fmt(fake.calls.creates.length / 4, 2)}`);
console.log(`  polls per task          ${fmt(polls, 1)}`);
console.log(`  cancel to all cancelled ${cancelMs} ms (2 requests in flight)`);
report('deep-research', {
  taskMs: TASK_MS,
  pollMs: POLL_MS,
  wallMs,
  criticalMs,
  ratio: wallMs / criticalMs,
  polls,
  cancelMs,
});
