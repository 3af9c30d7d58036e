import { PROMPTS_DIR } from '../../src/compose.js';
import { newSession, runSession } from '../../src/engine/run-session.js';
import type { EngineDeps } from '../../src/engine/session-context.js';
import type { ResearchRequest, SessionState } from '../../src/engine/session-state.js';
import type { EngineSettings } from '../../src/engine/settings.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import type { KnowledgeBase } from '../../src/ports/knowledge-base.js';
import { silentLogger } from '../../src/ports/logger.js';
import type { PageReader } from '../../src/ports/page-reader.js';
import type { ResearchEvent } from '../../src/ports/research.js';
import type { WebSearch } from '../../src/ports/web-search.js';
import { loadPrompts } from '../../src/prompts/load-prompts.js';
import type { ScriptedLlm } from '../fakes/scripted-llm.js';

export const prompts = loadPrompts(PROMPTS_DIR);

export function testSettings(overrides: Partial<EngineSettings> = {}): EngineSettings {
  const model = { name: 'test-model', reasoning: false };
  return {
    models: { orchestrator: model, agent: model, report: model },
    reasoningEffort: 'medium',
    maxParallelAgents: 3,
    maxCycles: null,
    maxAgentCycles: 8,
    timeBudgetMs: 60_000,
    agentTimeBudgetMs: 30_000,
    tokenBudget: 10_000_000,
    toolCallBudget: 1000,
    llmTimeoutMs: 30_000,
    toolTimeoutMs: 10_000,
    reportInputTokens: 100_000,
    // Scripted conversations here are about other steps; the checks' own tests turn them on.
    citationCheck: { mode: 'off', timeMs: 60_000, tokens: 60_000 },
    coverageCheck: false,
    charts: false,
    prices: { models: { 'test-model': { input: 1, output: 2 } }, searchPer1k: 0 },
    ...overrides,
  };
}

export interface Harness {
  deps: EngineDeps;
  events: ResearchEvent[];
  checkpoints: SessionState[];
}

export function harness(
  llm: ScriptedLlm,
  tools: { webSearch?: WebSearch; pageReader?: PageReader; knowledgeBase?: KnowledgeBase },
  onCheckpoint?: (state: SessionState) => void,
): Harness {
  const events: ResearchEvent[] = [];
  const checkpoints: SessionState[] = [];
  const deps: EngineDeps = {
    llm,
    prompts,
    ...tools,
    countTokens,
    clock: systemClock,
    logger: silentLogger,
    emit: (e) => events.push(e),
    saveCheckpoint: async (state) => {
      // A store serialises at save time; a copy keeps later mutation out of the saved checkpoint.
      checkpoints.push(structuredClone(state));
      onCheckpoint?.(state);
    },
  };
  return { deps, events, checkpoints };
}

export function run(h: Harness, settings: EngineSettings, request: ResearchRequest, signal?: AbortSignal) {
  return runSession(h.deps, settings, newSession('s-1', { skipClarification: true, ...request }), { signal });
}
