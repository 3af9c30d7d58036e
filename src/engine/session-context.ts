import type { Clock } from '../ports/clock.js';
import type { ExternalTool, ExternalTools } from '../ports/external-tools.js';
import type { KnowledgeBase } from '../ports/knowledge-base.js';
import type { ChatMessage, Llm, LlmRequest, LlmResponse } from '../ports/llm.js';
import type { Logger } from '../ports/logger.js';
import type { PageReader, PageResult } from '../ports/page-reader.js';
import type { Prompts } from '../ports/prompts.js';
import type { EmitEvent } from '../ports/research.js';
import type { SourceTexts } from '../ports/source-texts.js';
import { addModelUsage } from '../ports/usage.js';
import type { WebSearch } from '../ports/web-search.js';
import { withDeadline } from './deadline-signal.js';
import type { ResearchWork } from './research-work.js';
import type { SessionState } from './session-state.js';
import { type EngineSettings, LIMITS, reserves } from './settings.js';
import { createSourceRegistry, type SourceRegistry } from './sources/source-registry.js';

/** Everything the engine needs from outside. */
export interface EngineDeps {
  llm: Llm;
  prompts: Prompts;
  webSearch?: WebSearch;
  pageReader?: PageReader;
  knowledgeBase?: KnowledgeBase;
  /** Where the text of every source research is shown is kept with the session. */
  sourceTexts?: SourceTexts;
  /** Tools other systems offer research (MCP servers), namespaced `server__tool`. */
  externalTools?: ExternalTools;
  countTokens: (text: string) => number;
  clock: Clock;
  logger: Logger;
  emit: EmitEvent;
  /** The requester's notes to the running research after a given note id (none outside a thread). */
  steering?: (afterId: number) => Promise<{ id: number; text: string }[]>;
  /** Called after every step; a throw (e.g. the lease was lost) stops the session. */
  saveCheckpoint: (state: SessionState) => Promise<void>;
  /** An abort hands the session back rather than cancelling it (see ResearchRun). */
  handedBack?: () => boolean;
}

/** The adapters a process builds once and shares; each session adds its own `emit` and `saveCheckpoint`. */
export type EngineBase = Omit<EngineDeps, 'emit' | 'saveCheckpoint' | 'steering' | 'handedBack'>;

/** One running session: its state plus what lives only in memory (caches, in-flight work). */
export interface SessionContext {
  deps: EngineDeps;
  settings: EngineSettings;
  state: SessionState;
  sources: SourceRegistry;
  cancel: AbortSignal;
  hasInternalSearch: boolean;
  /** The external tools offered this session (those of the servers that answered at its start). */
  externalTools: ExternalTool[];
  /** In-flight and finished searches by normalised query, so parallel agents share one call. */
  searchCache: Map<string, Promise<number[]>>;
  pageCache: Map<string, Promise<PageResult>>;
  log: Logger;
  /** The backend's own research, when it is not the agents' (its findings and pieces of work). */
  work?: ResearchWork;
}

export function createContext(
  deps: EngineDeps,
  settings: EngineSettings,
  state: SessionState,
  cancel: AbortSignal,
  hasInternalSearch: boolean,
  externalTools: ExternalTool[] = [],
  work?: ResearchWork,
): SessionContext {
  return {
    deps,
    settings,
    state,
    sources: createSourceRegistry(state.sources, (source) => deps.emit({ type: 'source_added', source })),
    cancel,
    hasInternalSearch,
    externalTools,
    searchCache: new Map(),
    pageCache: new Map(),
    log: deps.logger.child({ sessionId: state.sessionId }),
    ...(work ? { work } : {}),
  };
}

export function deadlineOf(ctx: SessionContext): number {
  return (ctx.state.startedAt ?? ctx.deps.clock.now()) + ctx.settings.timeBudgetMs;
}

/** Research (orchestrator and agents) ends here, leaving time for the final report. */
export function researchEndOf(ctx: SessionContext): number {
  return deadlineOf(ctx) - reserves(ctx.settings).reportMs;
}

/** Runs `work` with a signal that aborts on cancellation or when `until` passes, freed when it ends. */
export function untilDeadline<T>(
  ctx: SessionContext,
  until: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withDeadline(until - ctx.deps.clock.now(), [ctx.cancel], work);
}

/** Why a call ended: the person cancelled, time ran out, or it genuinely failed. */
export function interruption(ctx: SessionContext, until: number): 'cancelled' | 'deadline' | null {
  if (ctx.cancel.aborted) return 'cancelled';
  if (ctx.deps.clock.now() >= until - 5) return 'deadline';
  return null;
}

export type ModelCall = Omit<LlmRequest, 'timeoutMs' | 'signal'> & { until: number };

/** One model call bounded by `until`, with usage recorded against its purpose. */
export async function callModel(ctx: SessionContext, call: ModelCall): Promise<LlmResponse> {
  const { until, ...request } = call;
  const timeoutMs = Math.max(1, Math.min(ctx.settings.llmTimeoutMs, until - ctx.deps.clock.now()));
  const maxTokens =
    request.maxTokens && request.model.reasoning
      ? request.maxTokens + LIMITS.reasoningTokenAllowance
      : request.maxTokens;
  const response = await untilDeadline(ctx, until, (signal) =>
    ctx.deps.llm.complete({ ...request, maxTokens, timeoutMs, signal }),
  );
  addModelUsage(ctx.state.usage, request.purpose, request.model.name, response.usage);
  return response;
}

export function currentDate(ctx: SessionContext): string {
  return new Date(ctx.deps.clock.now()).toISOString().slice(0, 10);
}

/** The line closing an orchestrator or agent request: the one part that changes every cycle, so it comes last. */
export function cycleStatus(ctx: SessionContext, kind: string, cycle: number, max: number): ChatMessage {
  const text = ctx.deps.prompts.render('cycle-status', {
    kind,
    current_cycle: String(cycle),
    max_cycles: String(max),
  }).text;
  return { role: 'user', content: text };
}
