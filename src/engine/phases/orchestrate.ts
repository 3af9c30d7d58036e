import pLimit from 'p-limit';
import type { ChatMessage } from '../../ports/llm.js';
import { runAgent } from '../agent/run-agent.js';
import { firstStop, researchLimits, stopWhen } from '../loop/stop-rules.js';
import { toolStep } from '../loop/tool-step.js';
import { currentDate, cycleStatus, researchEndOf, type SessionContext } from '../session-context.js';
import { noteFailure } from '../session-failures.js';
import type { StopReason } from '../session-state.js';
import { maxCyclesFor } from '../settings.js';
import { allInvalid } from '../tools/define-tool.js';
import { generateReportTool } from '../tools/generate-report-tool.js';
import { runToolCall, specsFor, toolsFor } from '../tools/tools.js';
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
  const done = [stopWhen.toolCalled(generateReportTool.name)];

  for (;;) {
    const stop = firstStop(limits, ctx, { cycle: state.cycle, turn: state.cycle, calls: [] });
    if (stop === 'cancelled') return 'cancelled';
    if (stop === 'max_cycles') break;
    if (stop) {
      state.stopReason = stop as StopReason;
      deps.emit({ type: 'research_stopped', reason: state.stopReason });
      break;
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
    if (step.kind === 'interrupted' && step.why === 'cancelled') return 'cancelled';
    if (step.kind === 'interrupted' || step.kind === 'failed') {
      state.stopReason = step.kind === 'interrupted' ? 'time_budget' : 'provider_error';
      if (step.kind === 'failed')
        ctx.log.warn({ err: step.error }, 'orchestrator model call failed; writing the report');
      deps.emit({ type: 'research_stopped', reason: state.stopReason });
      break;
    }
    if (step.kind === 'text') {
      if (hasFindings(state)) break;
      state.history.push(...step.nudge);
      await finishCycle(ctx);
      continue;
    }
    const { calls } = step;
    if (firstStop(done, ctx, { cycle: state.cycle, turn: state.cycle, calls })) break;

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
    state.history.push({ role: 'assistant', content: '', toolCalls: calls });
    calls.forEach((call, i) => {
      state.history.push({ role: 'tool', toolCallId: call.id, content: results[i]!.content });
    });
    if (ctx.cancel.aborted) return 'cancelled';
    await finishCycle(ctx);
  }
  return 'report';
}

async function finishCycle(ctx: SessionContext): Promise<void> {
  ctx.state.cycle += 1;
  await ctx.deps.saveCheckpoint(ctx.state);
}
