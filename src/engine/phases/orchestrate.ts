import pLimit from 'p-limit';
import type { ChatMessage, ToolCall, ToolSpec } from '../../ports/llm.js';
import { runAgent } from '../agent/run-agent.js';
import {
  callModel,
  currentDate,
  cycleStatus,
  exhaustedBudget,
  interruption,
  researchEndOf,
  type SessionContext,
} from '../session-context.js';
import { maxCyclesFor } from '../settings.js';
import { withSessionIds } from '../tools/session-call-ids.js';
import { THINK_ACK, TOOL } from '../tools/tool-names.js';
import { errorText } from '../tools/tool-result.js';
import { parseToolArgs, TOOL_SPECS } from '../tools/tool-specs.js';
import { hasFindings } from './findings.js';

/**
 * The orchestrator loop, from the state's current cycle. Each cycle is one
 * model call and the agents it dispatched; the state is checkpointed after
 * every cycle. Returns when the orchestrator asks for the report, cycles or
 * budgets run out, or the session is cancelled.
 */
export async function orchestrate(ctx: SessionContext): Promise<'report' | 'cancelled'> {
  const { deps, settings, state } = ctx;
  const model = settings.models.orchestrator;
  const maxCycles = maxCyclesFor(settings);
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
  const tools = orchestratorTools(ctx);

  while (state.cycle < maxCycles) {
    if (ctx.cancel.aborted) return 'cancelled';
    const stop = exhaustedBudget(ctx);
    if (stop) {
      state.stopReason = stop;
      deps.emit({ type: 'research_stopped', reason: stop });
      break;
    }
    deps.emit({ type: 'cycle', cycle: state.cycle + 1, maxCycles });
    // What changes every cycle comes last.
    const messages: ChatMessage[] = [{ role: 'system', content: system.text }, ...state.history];
    if (state.cycle === 1) {
      messages.push({ role: 'user', content: deps.prompts.render('first-cycle-reminder', {}).text });
    }
    messages.push(cycleStatus(ctx, 'cycle', state.cycle + 1, maxCycles));
    let calls: ToolCall[];
    try {
      const response = await callModel(ctx, {
        model,
        purpose: 'orchestrator',
        messages,
        tools,
        toolChoice: 'required',
        maxTokens: system.settings.maxTokens,
        reasoningEffort: settings.reasoningEffort,
        until,
      });
      calls = withSessionIds(response.toolCalls, `cycle${state.cycle + 1}`);
      if (calls.length === 0) {
        if (hasFindings(state)) break;
        state.history.push({ role: 'assistant', content: response.text });
        state.history.push({
          role: 'user',
          content: 'Respond only with tool calls: dispatch research_agent calls, or call generate_report.',
        });
        await finishCycle(ctx);
        continue;
      }
    } catch (error) {
      const why = interruption(ctx, until);
      if (why === 'cancelled') return 'cancelled';
      state.stopReason = why === 'deadline' ? 'time_budget' : 'provider_error';
      if (why !== 'deadline')
        ctx.log.warn({ err: error }, 'orchestrator model call failed; writing the report');
      deps.emit({ type: 'research_stopped', reason: state.stopReason });
      break;
    }
    if (calls.some((c) => c.name === TOOL.generateReport)) break;

    const results = await Promise.all(
      calls.map((call, i) => dispatch(ctx, call, `${state.cycle + 1}.${i + 1}`, limit)),
    );
    // Kept even when cancelled, so what finished agents found can still be shown.
    state.history.push({ role: 'assistant', content: '', toolCalls: calls });
    calls.forEach((call, i) => {
      state.history.push({ role: 'tool', toolCallId: call.id, content: results[i]! });
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

function orchestratorTools(ctx: SessionContext): ToolSpec[] {
  const tools = [TOOL_SPECS.researchAgent, TOOL_SPECS.orchestratorReport];
  if (!ctx.settings.models.orchestrator.reasoning) tools.push(TOOL_SPECS.think);
  return tools;
}

/** Every call gets a result (strict providers require it); agents beyond the parallel limit wait their turn. */
async function dispatch(
  ctx: SessionContext,
  call: ToolCall,
  agentId: string,
  limit: ReturnType<typeof pLimit>,
): Promise<string> {
  const { deps, state } = ctx;
  if (call.name === TOOL.think) {
    const args = parseToolArgs(TOOL.think, call);
    if (!args.ok) return args.message;
    deps.emit({ type: 'thinking', text: args.value.reasoning });
    return THINK_ACK;
  }
  if (call.name !== TOOL.researchAgent) {
    const names = orchestratorTools(ctx).map((t) => t.name);
    return `Error: there is no tool named "${call.name}" here. Available tools: ${names.join(', ')}.`;
  }
  const args = parseToolArgs(TOOL.researchAgent, call);
  if (!args.ok) return args.message;
  const { task } = args.value;
  return limit(async () => {
    if (ctx.cancel.aborted) return 'Research agent cancelled.';
    deps.emit({ type: 'agent_started', agentId, task });
    let result: Awaited<ReturnType<typeof runAgent>>;
    try {
      result = await runAgent(ctx, agentId, task);
    } catch (error) {
      // An agent's bug or a thrown provider error must not take the session down with it.
      ctx.log.error({ agentId, err: error }, 'research agent crashed');
      result = { ok: false, reason: errorText(error) };
    }
    if (result.ok) {
      state.agents.push({ id: agentId, toolCallId: call.id, task, status: 'done', sources: result.sources });
      deps.emit({ type: 'agent_done', agentId, sources: result.sources });
      return result.report;
    }
    state.agents.push({
      id: agentId,
      toolCallId: call.id,
      task,
      status: 'failed',
      sources: 0,
      error: result.reason,
    });
    if (!result.cancelled) deps.emit({ type: 'agent_failed', agentId, reason: result.reason });
    return `Research agent failed: ${result.reason}. Try a different approach or continue without this result.`;
  });
}
