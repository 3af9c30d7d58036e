import { z } from 'zod';
import { BACKEND_ENV, BACKEND_NAMES, backendNamed, readBackendSettings } from '../backends/backend-list.js';
import { type EnvOf, flag, positiveInt, positiveNumber } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

/** Which backend researches, each backend's own variables, the research's budgets and its checks. */
export const RESEARCH_FIELDS = {
  // Which backend researches new sessions (backends/backend-list.ts lists them; each adds its own variables).
  RESEARCH_BACKEND: z.enum(BACKEND_NAMES).default('agents'),
  ...BACKEND_ENV,
  MAX_PARALLEL_AGENTS: z.coerce.number().int().min(1).max(10).default(3),
  MAX_CYCLES: positiveInt.optional(),
  MAX_AGENT_CYCLES: positiveInt.default(8),
  // Unset: the researching backend's own (20 for the agents, 60 for hosted backends, whose tasks take minutes).
  TIME_BUDGET_MINUTES: positiveNumber.optional(),
  AGENT_TIME_BUDGET_MINUTES: positiveNumber.default(12),
  TOKEN_BUDGET: positiveInt.default(2_000_000),
  TOOL_CALL_BUDGET: positiveInt.default(200),
  TOOL_TIMEOUT_SECONDS: positiveNumber.default(60),
  REPORT_INPUT_TOKENS: positiveInt.default(120_000),
  // After the report: each cited claim checked against its sources, by the model or by lexical evidence alone.
  CITATION_CHECK: z.enum(['model', 'lexical', 'off']).default('model'),
  CITATION_CHECK_SECONDS: positiveNumber.default(120),
  CITATION_CHECK_TOKENS: positiveInt.default(60_000),
  // Before the report: the findings checked against the plan; a thin step earns one more cycle.
  COVERAGE_CHECK: flag.default(true),
  // After the check: the report's cited figures drawn as charts (one short model call, only with three or more).
  REPORT_CHARTS: flag.default(true),
};

/** The backend that researches new sessions, as the list has it. */
export function researchingBackend(e: EnvOf<typeof RESEARCH_FIELDS>) {
  return backendNamed(e.RESEARCH_BACKEND)!;
}

export function readResearch(
  e: EnvOf<typeof RESEARCH_FIELDS>,
): Pick<Config, 'research' | 'limits' | 'checks'> {
  return {
    research: { backend: e.RESEARCH_BACKEND, settings: readBackendSettings(e) },
    limits: {
      maxParallelAgents: e.MAX_PARALLEL_AGENTS,
      maxCycles: e.MAX_CYCLES ?? null,
      maxAgentCycles: e.MAX_AGENT_CYCLES,
      timeBudgetMs: (e.TIME_BUDGET_MINUTES ?? researchingBackend(e).timeBudgetMinutes) * 60_000,
      agentTimeBudgetMs: e.AGENT_TIME_BUDGET_MINUTES * 60_000,
      tokenBudget: e.TOKEN_BUDGET,
      toolCallBudget: e.TOOL_CALL_BUDGET,
      toolTimeoutMs: e.TOOL_TIMEOUT_SECONDS * 1000,
      reportInputTokens: e.REPORT_INPUT_TOKENS,
    },
    checks: {
      citations: {
        mode: e.CITATION_CHECK,
        timeMs: e.CITATION_CHECK_SECONDS * 1000,
        tokens: e.CITATION_CHECK_TOKENS,
      },
      coverage: e.COVERAGE_CHECK,
      charts: e.REPORT_CHARTS,
    },
  };
}
