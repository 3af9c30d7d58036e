import type { ToolCall } from '../../ports/llm.js';
import { spendCost, totalTokens } from '../../ports/usage.js';
import type { SessionContext } from '../session-context.js';
import type { StopReason } from '../session-state.js';
import type { ToolStep } from './tool-step.js';

/** Why a research loop (the orchestrator's or an agent's) stops. Budgets are also a session's StopReason. */
export type Stop =
  | Exclude<StopReason, 'provider_error'>
  | 'cancelled'
  | 'max_cycles'
  | 'max_turns'
  | 'tool_called'
  /** The model call failed for good (its retries spent). */
  | 'model_failed'
  /** The model answered in text when there was already enough to report on. */
  | 'answered'
  /** Turn after turn, every call the model made was refused. */
  | 'invalid_calls';

/**
 * Where a loop stands: research cycles spent, model turns taken, the latest
 * turn's outcome and calls, and how many turns in a row had only refused calls.
 */
export interface LoopView {
  cycle: number;
  turn: number;
  calls: ToolCall[];
  step?: ToolStep;
  invalidTurns?: number;
}

/** The research's tool calls are spent: the loop stops, and a call made in the same turn is refused. */
export function toolCallsSpent(ctx: SessionContext): boolean {
  return ctx.state.toolCalls >= ctx.settings.toolCallBudget;
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
  toolCallBudget: (): StopRule => (ctx) => (toolCallsSpent(ctx) ? 'tool_call_budget' : null),
  /** This run has spent what the daily caps left it (a model without a price costs as the dearest one). */
  spendCap: (): StopRule => (ctx) => {
    const limit = ctx.settings.spendLimitUsd;
    if (limit === undefined) return null;
    return spendCost(ctx.state.usage, ctx.settings.prices) >= limit ? 'spend_cap' : null;
  },
  /** The model called this tool in its latest turn (`generate_report`, say). */
  toolCalled:
    (name: string): StopRule =>
    (_ctx, loop) =>
      loop.calls.some((call) => call.name === name) ? 'tool_called' : null,
  /** The latest model call was cut short by a cancel or the deadline (not a failure of the model). */
  interrupted: (): StopRule => (_ctx, loop) =>
    loop.step?.kind !== 'interrupted' ? null : loop.step.why === 'cancelled' ? 'cancelled' : 'time_budget',
  modelFailed: (): StopRule => (_ctx, loop) => (loop.step?.kind === 'failed' ? 'model_failed' : null),
  /** A text answer ends the loop when `enough` holds (there is something to report on). */
  answeredInText:
    (enough: (ctx: SessionContext) => boolean): StopRule =>
    (ctx, loop) =>
      loop.step?.kind === 'text' && enough(ctx) ? 'answered' : null,
  invalidTurns:
    (max: number): StopRule =>
    (_ctx, loop) =>
      (loop.invalidTurns ?? 0) >= max ? 'invalid_calls' : null,
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
