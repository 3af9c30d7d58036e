import type { ToolCall } from '../../ports/llm.js';
import type { SessionContext } from '../session-context.js';
import type { StopReason } from '../session-state.js';
import { estimateCost, totalTokens } from '../usage.js';

/** Why a research loop (the orchestrator's or an agent's) stops. Budgets are also a session's StopReason. */
export type Stop =
  | Exclude<StopReason, 'provider_error'>
  | 'cancelled'
  | 'max_cycles'
  | 'max_turns'
  | 'tool_called';

/** Where a loop stands: research cycles spent, model turns taken, and the calls of the latest turn. */
export interface LoopView {
  cycle: number;
  turn: number;
  calls: ToolCall[];
}

/** One stop rule: a predicate on the session and the loop, naming why it stops, or null. */
export type StopRule = (ctx: SessionContext, loop: LoopView) => Stop | null;

export const stopWhen = {
  cancelled: (): StopRule => (ctx) => (ctx.cancel.aborted ? 'cancelled' : null),
  cycles:
    (max: number): StopRule =>
    (_ctx, loop) =>
      loop.cycle >= max ? 'max_cycles' : null,
  turns:
    (max: number): StopRule =>
    (_ctx, loop) =>
      loop.turn >= max ? 'max_turns' : null,
  /** Time is up at `at` (epoch ms). */
  deadline:
    (at: number): StopRule =>
    (ctx) =>
      ctx.deps.clock.now() >= at ? 'time_budget' : null,
  tokenBudget: (): StopRule => (ctx) =>
    totalTokens(ctx.state.usage) >= ctx.settings.tokenBudget ? 'token_budget' : null,
  toolCallBudget: (): StopRule => (ctx) =>
    ctx.state.toolCalls >= ctx.settings.toolCallBudget ? 'tool_call_budget' : null,
  /** This run has spent what the daily caps left it (unknown prices spend nothing). */
  spendCap: (): StopRule => (ctx) => {
    const limit = ctx.settings.spendLimitUsd;
    if (limit === undefined) return null;
    return (estimateCost(ctx.state.usage, ctx.settings.prices) ?? 0) >= limit ? 'spend_cap' : null;
  },
  /** The model called this tool in its latest turn (`generate_report`, say). */
  toolCalled:
    (name: string): StopRule =>
    (_ctx, loop) =>
      loop.calls.some((call) => call.name === name) ? 'tool_called' : null,
};

/** What ends any research loop: a cancel, its cycles, its deadline, or the session's budgets. */
export function researchLimits(maxCycles: number, deadline: number): StopRule[] {
  return [
    stopWhen.cancelled(),
    stopWhen.cycles(maxCycles),
    stopWhen.deadline(deadline),
    stopWhen.tokenBudget(),
    stopWhen.toolCallBudget(),
    stopWhen.spendCap(),
  ];
}

/** The first rule that says stop (rules combine with "any"), or null to go on. */
export function firstStop(rules: StopRule[], ctx: SessionContext, loop: LoopView): Stop | null {
  for (const rule of rules) {
    const stop = rule(ctx, loop);
    if (stop) return stop;
  }
  return null;
}
