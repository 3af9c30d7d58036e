import { ConfigError, noResearchTools, ProviderError } from '../ports/errors.js';
import type { SourceLimits } from '../ports/research.js';
import { emptyUsage, estimateCost, spendCost } from '../ports/usage.js';
import { clarify } from './phases/clarify.js';
import { cancelledReport, writeFinalReport } from './phases/final-report.js';
import { orchestrate } from './phases/orchestrate.js';
import { writePlan } from './phases/plan.js';
import { researchRequestText } from './phases/research-request.js';
import type { ResearchWork } from './research-work.js';
import { createContext, type EngineDeps, type SessionContext } from './session-context.js';
import { nothingResearched } from './session-failures.js';
import { type FinalReport, type ResearchRequest, type SessionState, STATE_VERSION } from './session-state.js';
import type { EngineSettings } from './settings.js';
import { errorText } from './tools/tool-result.js';

export type SessionOutcome =
  | { kind: 'needs_clarification'; questions: string; state: SessionState }
  /** The plan is written; research starts when the requester says so or `seconds` have passed. */
  | { kind: 'needs_plan_review'; plan: string; seconds: number; state: SessionState }
  | { kind: 'done'; report: FinalReport; state: SessionState }
  /** `found` is what the session had gathered when it was cancelled. */
  | { kind: 'cancelled'; found: FinalReport; state: SessionState };

/**
 * How a backend researches on the shared session skeleton (clarify, plan,
 * review, research, report, checkpoints): its plan, which may instead ask
 * the requester questions, and its research from the plan.
 */
export interface ResearchMethod {
  /** The clarify model asks first (agents); otherwise the plan step may ask (the task graph). */
  clarifiesFirst: boolean;
  /** Research needs no search of ours (a hosted model searches the web itself). */
  searchesItself?: boolean;
  plan(ctx: SessionContext): Promise<{ kind: 'plan'; plan: string } | { kind: 'ask'; questions: string }>;
  research(ctx: SessionContext): Promise<'report' | 'cancelled'>;
  /**
   * The report as the backend's own agent wrote it (its citations already the
   * session's numbers), checked and finished like one the report model writes;
   * unset or null: the report model writes it from the findings.
   */
  report?(ctx: SessionContext): string | null;
  /** Its own pieces of research, when they are not the agents' (their findings, failures and what to check). */
  work?: ResearchWork;
}

/** The engine's own: a written plan, then the orchestrator dispatching research agents. */
export const AGENTS: ResearchMethod = {
  clarifiesFirst: true,
  plan: async (ctx) => ({ kind: 'plan', plan: await writePlan(ctx) }),
  research: orchestrate,
};

export function newSession(sessionId: string, request: ResearchRequest, backend = 'agents'): SessionState {
  return {
    version: STATE_VERSION,
    backend,
    sessionId,
    request,
    phase: 'clarify',
    startedAt: null,
    plan: null,
    history: [],
    cycle: 0,
    sources: [],
    searches: {},
    readUrls: [],
    agents: [],
    toolCalls: 0,
    usage: emptyUsage(),
    stopReason: null,
    report: null,
  };
}

/** The requester answered the questions (or chose to start without answering: `null`). One round only. */
export function answerClarification(state: SessionState, answer: string | null): SessionState {
  const questions = state.request.clarification?.questions ?? '';
  return {
    ...structuredClone(state),
    request: { ...state.request, clarification: { questions, answer } },
    phase: 'plan',
  };
}

/**
 * [Research more]: a new session that goes on from a finished one's final
 * state, with everything it searched, read and found, a fresh allowance of
 * cycles, time, tokens and tool calls, and the next report version.
 */
export function continueResearch(
  finished: SessionState,
  sessionId: string,
  /** The report it delivered (a cancelled session's partial one is not in its state). */
  report: FinalReport | null = finished.report,
): SessionState {
  const state = structuredClone(finished);
  const version = (finished.reportVersion ?? 1) + 1;
  return {
    ...state,
    sessionId,
    phase: 'research',
    startedAt: null,
    reportVersion: version,
    cycleBase: finished.cycle,
    earlierReads: [...state.readUrls],
    earlierSessions: [finished.sessionId, ...(finished.earlierSessions ?? [])],
    earlierCitations: (report?.sources ?? []).map((s) => s.key),
    coverageChecked: undefined,
    thinSteps: undefined,
    toolCalls: 0,
    usage: emptyUsage(),
    stopReason: null,
    report: null,
  };
}

/**
 * Runs a session from wherever its state is (new, answered, or a checkpoint)
 * to its next resting point: questions for the requester, a report, or
 * cancellation. The caller's state is not mutated.
 */
export async function runSession(
  deps: EngineDeps,
  settings: EngineSettings,
  initial: SessionState,
  options: { signal?: AbortSignal; method?: ResearchMethod } = {},
): Promise<SessionOutcome> {
  const state = structuredClone(initial);
  const cancel = options.signal ?? new AbortController().signal;
  // A channel's policy may leave out sources: what it does not allow is never offered.
  const allowed = settings.sources;
  const hasInternalSearch = allowed?.knowledgeBase !== false && (await knowledgeBaseReady(deps));
  // The allowed tools of the MCP servers that answer now; one that does not is left out (and logged).
  const external = (options.method?.searchesItself ? [] : ((await deps.externalTools?.list()) ?? [])).filter(
    (tool) => mcpAllowed(allowed, tool.server),
  );
  const web = allowed?.web === false ? { webSearch: undefined, pageReader: undefined } : {};
  const searches = { ...deps, ...web };
  // A hosted backend searches by itself; the engine's agents need a search of ours.
  if (!searches.webSearch && !hasInternalSearch && !external.length && !options.method?.searchesItself)
    throw allowed ? noAllowedTools() : noResearchTools();
  const ctx = createContext(
    searches,
    settings,
    state,
    cancel,
    hasInternalSearch,
    external,
    options.method?.work,
  );
  try {
    return await advance(ctx, options.method ?? AGENTS);
  } catch (error) {
    if (cancel.aborted) return cancelled(ctx);
    ctx.log.error({ err: error, phase: state.phase }, 'research session failed');
    // What a failed run spent still counts against the caps.
    emitUsage(ctx);
    throw error;
  }
}

async function advance(ctx: SessionContext, method: ResearchMethod): Promise<SessionOutcome> {
  const { deps, state } = ctx;
  if (state.phase === 'clarify') {
    if (method.clarifiesFirst && !state.request.skipClarification && !state.request.clarification) {
      deps.emit({ type: 'phase', phase: 'clarify' });
      const result = await clarify(ctx);
      if (result.kind === 'ask') return asked(ctx, result.questions);
    }
    state.phase = 'plan';
  }
  if (state.phase === 'plan') {
    deps.emit({ type: 'phase', phase: 'plan' });
    state.startedAt ??= deps.clock.now();
    const planned = await method.plan(ctx);
    if (planned.kind === 'ask') {
      // The time budget starts once the questions are answered.
      state.startedAt = null;
      return asked(ctx, planned.questions);
    }
    state.plan = planned.plan;
    const review = state.request.planReview;
    deps.emit({ type: 'plan_done', plan: state.plan, ...(review ? { review: true } : {}) });
    state.history = [{ role: 'user', content: researchRequestText(deps.prompts, state.request) }];
    state.phase = review ? 'review' : 'research';
    await deps.saveCheckpoint(state);
    if (review) return { kind: 'needs_plan_review', plan: state.plan, seconds: review.seconds, state };
  }
  if (state.phase === 'review') {
    // Started: the time budget counts from now, not from when the plan was written.
    state.startedAt = deps.clock.now();
    state.phase = 'research';
  }
  if (state.phase === 'research') {
    if (state.startedAt === null) {
      // A continued research: its own time budget from now, and the orchestrator told to go on.
      state.startedAt = deps.clock.now();
      const content = deps.prompts.render('research-more', {}).text;
      if ((state.reportVersion ?? 1) > 1) state.history.push({ role: 'user', content });
    }
    deps.emit({ type: 'phase', phase: 'research' });
    if ((await method.research(ctx)) === 'cancelled') return cancelled(ctx);
    const failure = nothingResearched(state, ctx.settings.modelServer, ctx.work);
    if (failure) throw failure;
    state.phase = 'report';
    await deps.saveCheckpoint(state);
  }
  if (state.phase === 'report') {
    deps.emit({ type: 'phase', phase: 'report' });
    const report = await writeFinalReport(ctx, method.report?.(ctx) ?? null);
    if (report === 'cancelled') return cancelled(ctx);
    state.report = report;
    state.phase = 'done';
    deps.emit({ type: 'report_done', markdown: report.markdown });
    emitUsage(ctx);
    await deps.saveCheckpoint(state);
  }
  if (!state.report) throw new Error(`session ${state.sessionId} is done but has no report`);
  return { kind: 'done', report: state.report, state };
}

/** The requester is asked these questions; the session rests until they answer (or start without). */
async function asked(ctx: SessionContext, questions: string): Promise<SessionOutcome> {
  ctx.state.request.clarification = { questions, answer: null };
  ctx.deps.emit({ type: 'clarification', questions });
  await ctx.deps.saveCheckpoint(ctx.state);
  return { kind: 'needs_clarification', questions, state: ctx.state };
}

function cancelled(ctx: SessionContext): SessionOutcome {
  emitUsage(ctx);
  return { kind: 'cancelled', found: cancelledReport(ctx), state: ctx.state };
}

function emitUsage(ctx: SessionContext): void {
  ctx.deps.emit({
    type: 'usage',
    usage: ctx.state.usage,
    costUsd: estimateCost(ctx.state.usage, ctx.settings.prices),
    spendUsd: spendCost(ctx.state.usage, ctx.settings.prices),
  });
}

async function knowledgeBaseReady(deps: EngineDeps): Promise<boolean> {
  if (!deps.knowledgeBase) return false;
  try {
    return await deps.knowledgeBase.hasDocuments();
  } catch (error) {
    // With web search the session can go on without it; alone, it is the cause to name.
    if (!deps.webSearch) {
      throw new ProviderError(
        'knowledge_base_unavailable',
        `The knowledge base could not be read (${errorText(error)}) and there is no web search to research with: check the database that holds it (DATABASE_URL) and try again.`,
        false,
        { cause: error },
      );
    }
    deps.logger.warn({ err: error }, 'knowledge base unavailable; researching without it');
    return false;
  }
}

function mcpAllowed(allowed: SourceLimits | undefined, server: string): boolean {
  return !allowed || allowed.mcpServers === 'all' || allowed.mcpServers.includes(server);
}

function noAllowedTools(): ConfigError {
  return new ConfigError(
    'no_research_tools',
    "None of the sources this channel's research policy allows is set up here (or the knowledge base is empty): ask whoever manages the policy to allow another source, or an operator to set one up.",
  );
}
