// Engine overhead: wall time of whole sessions against their critical path of
// model and tool latency, with a scripted model of fixed latency per call.
//   npm run bench:engine   (ENGINE_RUNS=10 by default)
import { PROMPTS_DIR } from '../src/compose.js';
import { newSession, runSession } from '../src/engine/run-session.js';
import type { EngineSettings } from '../src/engine/settings.js';
import { countTokens } from '../src/llm/count-tokens.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { loadPrompts } from '../src/prompts/load-prompts.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { benchSearch } from './lib/bench-search.js';
import { fmt, median, report } from './lib/stats.js';

const MODEL_MS = 100;
const TOOL_MS = 50;
const CYCLES = 3;
const RUNS = Number(process.env.ENGINE_RUNS ?? 10);
const prompts = loadPrompts(PROMPTS_DIR);

function settings(agents: number): EngineSettings {
  const model = { name: 'bench-model', reasoning: false };
  return {
    models: { orchestrator: model, agent: model, report: model },
    reasoningEffort: 'medium',
    maxParallelAgents: agents,
    maxCycles: CYCLES + 1,
    maxAgentCycles: 8,
    timeBudgetMs: 600_000,
    agentTimeBudgetMs: 300_000,
    tokenBudget: 100_000_000,
    toolCallBudget: 10_000,
    llmTimeoutMs: 60_000,
    toolTimeoutMs: 60_000,
    reportInputTokens: 1_000_000,
    // The checks add model calls of their own (bench/citations.ts measures the claim check).
    citationCheck: { mode: 'off', timeMs: 60_000, tokens: 60_000 },
    coverageCheck: false,
    charts: false,
    prices: { models: {}, searchPer1k: 0 },
  };
}

/**
 * The critical path: plan, then per cycle the orchestrator call and the
 * slowest agent (two turns around one search, then its report), then the
 * orchestrator's last call and the final report. Agents in one cycle run in
 * parallel, so their count does not lengthen it.
 */
const criticalPath = CYCLES * (MODEL_MS + 3 * MODEL_MS + TOOL_MS) + 3 * MODEL_MS;

async function once(agents: number): Promise<number> {
  const llm = new RuleLlm({ delayMs: MODEL_MS, rounds: CYCLES, agentsPerCycle: agents });
  const state = newSession(`bench-${agents}`, { question: 'Benchmark question', skipClarification: true });
  const started = performance.now();
  const outcome = await runSession(
    {
      llm,
      prompts,
      webSearch: benchSearch(TOOL_MS),
      countTokens,
      clock: systemClock,
      logger: silentLogger,
      emit: () => {},
      saveCheckpoint: async (s) => {
        // What the store would do with every checkpoint: serialise it.
        JSON.stringify(s);
      },
    },
    settings(agents),
    state,
  );
  const wall = performance.now() - started;
  if (outcome.kind !== 'done') throw new Error(`session ended ${outcome.kind}`);
  const expected = 1 + CYCLES * (1 + 3 * agents) + 2;
  if (llm.calls.length !== expected)
    throw new Error(`expected ${expected} model calls, saw ${llm.calls.length}`);
  return wall;
}

const rows: Record<string, unknown>[] = [];
console.log(
  `engine overhead: ${CYCLES} cycles, model ${MODEL_MS} ms/call, search ${TOOL_MS} ms, median of ${RUNS} runs`,
);
console.log('agents/cycle  wall ms  critical path ms  ratio');
for (const agents of [1, 2, 3]) {
  await once(agents); // warm-up: module loading and JIT are not the engine's steady state
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) walls.push(await once(agents));
  const wall = median(walls);
  const ratio = wall / criticalPath;
  console.log(
    `${String(agents).padStart(12)}  ${fmt(wall, 0).padStart(7)}  ${String(criticalPath).padStart(16)}  ${fmt(ratio, 3)}`,
  );
  rows.push({
    agents,
    wallMs: Math.round(wall),
    criticalPathMs: criticalPath,
    ratio: Number(ratio.toFixed(3)),
  });
}
const worst = Math.max(...rows.map((r) => r.ratio as number));
console.log(`worst ratio ${fmt(worst, 3)} (target ≤ 1.05): ${worst <= 1.05 ? 'met' : 'MISSED'}`);
report('engine-overhead', { modelMs: MODEL_MS, toolMs: TOOL_MS, cycles: CYCLES, runs: RUNS, rows, worst });
