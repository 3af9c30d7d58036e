import pLimit from 'p-limit';
import type { ChatMessage } from '../../ports/llm.js';
import { runAgent } from '../agent/run-agent.js';
import { firstStop, type LoopView, researchLimits, type Stop, stopWhen } from '../loop/stop-rules.js';
import { callsTurn, toolStep } from '../loop/tool-step.js';
import { currentDate, cycleStatus, researchEndOf, type SessionContext } from '../session-context.js';
import { noteFailure } from '../session-failures.js';
import type { StopReason } from '../session-state.js';
import { maxCyclesFor } from '../settings.js';
import { allInvalid } from '../tools/define-tool.js';
import { generateReportTool } from '../tools/generate-report-tool.js';
import { runToolCall, specsFor, toolsFor } from '../tools/tools.js';
import { checkCoverage } from './check-coverage.js';
import { hasFindings } from './findings.js';
import { applySteering } from './steering.js';

/**
 * The orchestrator loop, from the state's current cycle. Each cycle is one
 * model call and the agents it dispatched; the state is checkpointed after
 * every cycle. Returns when the orchestrator asks for the report, cycles or
 * budgets run out, or the session is cancelled.
 */
export async function orchestrate(ctx: SessionContext): Promise<'report' | 'cancelled'> {
  const { deps, settings, state } = ctx;
  const model = settings.models.orchestrator;
  // A continued research has a fresh allowance after the cycles of its earlier versions.
  const maxCycles = maxCyclesFor(settings) + (state.cycleBase ?? 0);
  const limit = pLimit(settings.maxParallelAgents);
  const until = researchEndOf(ctx);
  // Byte-identical for the whole session, so providers can cache everything up to the cycle line.
  const system = deps.prompts.render(model.reasoning ? 'orchestrator-reasoning' : 'orchestrator', {
    current_date: currentDate(ctx),
    research_plan: state.plan ?? '',
    max_parallel_agents: String(settings.maxParallelAgents),
    has_web_search: Boolean(deps.webSearch),
    has_internal_search: ctx.hasInternalSearch,
  });
  const offered = toolsFor(ctx, 'orchestrator');
  const tools = specsFor(offered, 'orchestrator');
  const limits = researchLimits(maxCycles, until);
  // After each model turn: it was cut short or failed, answered in text with findings in hand, or asked for the report.
  const afterTurn = [
    stopWhen.interrupted(),
    stopWhen.modelFailed(),
    stopWhen.answeredInText((c) => hasFindings(c.state)),
    stopWhen.toolCalled(generateReportTool.name),
  ];
  const loop: LoopView = { cycle: state.cycle, turn: state.cycle, calls: [] };

  for (;;) {
    const stop = firstStop(limits, ctx, { cycle: state.cycle, turn: state.cycle, calls: [] });
    if (stop) {
      await checkCoverageAt(ctx, stop, false);
      return stopResearch(ctx, stop, loop);
    }
    deps.emit({ type: 'cycle', cycle: state.cycle + 1, maxCycles });
    await applySteering(ctx);
    // What changes every cycle comes last.
    const messages: ChatMessage[] = [{ role: 'system', content: system.text }, ...state.history];
    if (state.cycle === 1) {
      messages.push({ role: 'user', content: deps.prompts.render('first-cycle-reminder', {}).text });
    }
    messages.push(cycleStatus(ctx, 'cycle', state.cycle + 1, maxCycles));
    const step = await toolStep(
      ctx,
      {
        model,
        purpose: 'orchestrator',
        messages,
        tools,
        toolChoice: 'required',
        maxTokens: system.settings.maxTokens,
        reasoningEffort: settings.reasoningEffort,
        until,
      },
      `cycle${state.cycle + 1}`,
      'dispatch research_agent calls, or call generate_report',
    );
    const calls = step.kind === 'calls' ? step.calls : [];
    Object.assign(loop, { cycle: state.cycle, turn: state.cycle, calls, step });
    const after = firstStop(afterTurn, ctx, loop);
    if (after) {
      const room =
        firstStop(limits, ctx, loop) === null && researchEndOf(ctx) - deps.clock.now() > MIN_EXTRA_MS;
      if (await checkCoverageAt(ctx, after, room)) continue;
      return stopResearch(ctx, after, loop);
    }
    if (step.kind === 'text') {
      state.history.push(...step.nudge);
      await finishCycle(ctx);
      continue;
    }

    // Every call gets a result (strict providers require it); agents beyond the parallel limit wait their turn.
    const results = await Promise.all(
      calls.map((call, i) =>
        runToolCall(call, offered, {
          ctx,
          role: 'orchestrator',
          id: `${state.cycle + 1}.${i + 1}`,
          until,
          activity: () => {},
          queue: (work) => limit(work),
          dispatch: (agentId, task) => runAgent(ctx, agentId, task),
        }),
      ),
    );
    const invalid = allInvalid(results);
    if (invalid !== null) noteFailure(state, 'model', invalid);
    // Kept even when cancelled, so what finished agents found can still be shown.
    state.history.push(callsTurn(calls, step));
    calls.forEach((call, i) => {
      state.history.push({ role: 'tool', toolCallId: call.id, content: results[i]!.content });
    });
    if (firstStop(cancelled, ctx, loop)) return 'cancelled';
    await finishCycle(ctx);
  }
}

const cancelled = [stopWhen.cancelled()];

/** Research ending by the orchestrator's choice or its cycles is checked against the plan first. */
const COVERAGE_STOPS: Stop[] = ['tool_called', 'answered', 'max_cycles'];
/** The least research time worth one more cycle for a thin step. */
const MIN_EXTRA_MS = 60_000;

/**
 * The coverage check, once per report version: a thin step earns one more
 * cycle when `room` (budget) is left, and is named in the report otherwise.
 * True when research goes on for it.
 */
async function checkCoverageAt(ctx: SessionContext, stop: Stop, room: boolean): Promise<boolean> {
  const { deps, state } = ctx;
  if (!ctx.settings.coverageCheck || state.coverageChecked || !COVERAGE_STOPS.includes(stop)) return false;
  state.coverageChecked = true;
  const thin = await checkCoverage(ctx);
  if (!thin) return false;
  if (thin.length === 0) {
    deps.emit({ type: 'checking', text: 'The findings cover every step of the plan' });
    return false;
  }
  const steps = thin.length === 1 ? 'one step is' : `${thin.length} steps are`;
  if (room) {
    state.history.push({
      role: 'user',
      content: deps.prompts.render('coverage-gap', { gaps: thin.join('\n') }).text,
    });
    deps.emit({
      type: 'checking',
      text: `Plan check: ${steps} thin, researching ${thin.length === 1 ? 'it' : 'them'} one more cycle`,
    });
    return true;
  }
  state.thinSteps = thin;
  deps.emit({
    type: 'checking',
    text: `Plan check: ${steps} thin and no budget is left; the report says which`,
  });
  return false;
}

/** Where research goes when a rule stops it: the report (labelled partial when a budget or the model ended it), or cancelled. */
function stopResearch(ctx: SessionContext, stop: Stop, loop: LoopView): 'report' | 'cancelled' {
  if (stop === 'cancelled') return 'cancelled';
  const reason = PARTIAL[stop];
  if (!reason) return 'report';
  if (loop.step?.kind === 'failed')
    ctx.log.warn({ err: loop.step.error }, 'orchestrator model call failed; writing the report');
  ctx.state.stopReason = reason;
  ctx.deps.emit({ type: 'research_stopped', reason });
  return 'report';
}

/** The stops after which the report is labelled partial, and why. */
const PARTIAL: Partial<Record<Stop, StopReason>> = {
  time_budget: 'time_budget',
  token_budget: 'token_budget',
  tool_call_budget: 'tool_call_budget',
  spend_cap: 'spend_cap',
  model_failed: 'provider_error',
};

async function finishCycle(ctx: SessionContext): Promise<void> {
  ctx.state.cycle += 1;
  await ctx.deps.saveCheckpoint(ctx.state);
}
