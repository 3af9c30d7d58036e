import type { ModelSpec, ReasoningEffort } from '../ports/llm.js';
import type { SourceLimits } from '../ports/research.js';
import type { PriceTable } from '../ports/usage.js';

/** Limits and models for a session; built from config by the composition root. */
export interface EngineSettings {
  models: { orchestrator: ModelSpec; agent: ModelSpec; report: ModelSpec };
  reasoningEffort: ReasoningEffort;
  maxParallelAgents: number;
  /** Orchestrator cycles; null picks the reference default: 8, or 4 for a reasoning orchestrator model. */
  maxCycles: number | null;
  maxAgentCycles: number;
  /** The whole session, research and report, ends within this. */
  timeBudgetMs: number;
  /** An agent stops researching and writes its report after this long. */
  agentTimeBudgetMs: number;
  tokenBudget: number;
  toolCallBudget: number;
  /** What this run may still spend today (the daily caps less what was spent); unset: no cap. */
  spendLimitUsd?: number;
  /** The sources this run may read (its channel's policy); unset: every one set up. */
  sources?: SourceLimits;
  /** Cap for one model call; the time left in the session caps it further. */
  llmTimeoutMs: number;
  toolTimeoutMs: number;
  /** Above this many input tokens the final report is written by rolling synthesis. */
  reportInputTokens: number;
  prices: PriceTable;
  /** The claim check after the report: judged by the model, by lexical evidence alone, or not at all; its own budgets. */
  citationCheck: CitationCheckSettings;
  /** Before the report, the findings are checked against the plan's steps (one more cycle for a thin step). */
  coverageCheck: boolean;
  /** After the claim check, the report's cited figures become charts (see charts/report-charts.ts). */
  charts: boolean;
  /** Where the models are served (no credentials), for naming it when its answers are unusable. */
  modelServer?: string;
}

export interface CitationCheckSettings {
  mode: 'model' | 'lexical' | 'off';
  timeMs: number;
  /** Input and output tokens the judge call may use; claims beyond it are left unchecked. */
  tokens: number;
}

export const LIMITS = {
  maxClarifyingQuestions: 5,
  maxPlanSteps: 6,
  searchResultsPerQuery: 10,
  searchResultsPerCall: 20,
  queriesPerCall: 5,
  internalResultsPerQuery: 8,
  urlsPerCall: 10,
  charsPerPage: 15_000,
  charsPerCall: 150_000,
  minPageChars: 50,
  /** Reasoning models spend completion tokens on thinking; tool steps need headroom for it. */
  reasoningTokenAllowance: 16_000,
  continuationItems: 40,
} as const;

export function maxCyclesFor(settings: EngineSettings): number {
  return settings.maxCycles ?? (settings.models.orchestrator.reasoning ? 4 : 8);
}

/** Time kept back from research for the final report, and for each agent's intermediate report. */
export function reserves(settings: EngineSettings): { reportMs: number; agentReportMs: number } {
  return {
    reportMs: Math.min(5 * 60_000, settings.timeBudgetMs * 0.25),
    agentReportMs: Math.min(2 * 60_000, settings.timeBudgetMs * 0.1),
  };
}
