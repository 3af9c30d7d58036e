import type { ChatMessage, ToolSpec } from '../../ports/llm.js';
import type { AgentActivity } from '../../ports/research.js';
import { firstStop, type LoopView, researchLimits, type Stop, stopWhen } from '../loop/stop-rules.js';
import { callsTurn, toolStep } from '../loop/tool-step.js';
import {
  callModel,
  currentDate,
  cycleStatus,
  interruption,
  researchEndOf,
  type SessionContext,
} from '../session-context.js';
import { noteFailure, noteWorked } from '../session-failures.js';
import { LIMITS, reserves } from '../settings.js';
import { allInvalid } from '../tools/define-tool.js';
import { generateReportTool } from '../tools/generate-report-tool.js';
import { thinkTool } from '../tools/think-tool.js';
import { errorText } from '../tools/tool-result.js';
import { runToolCall, specsFor, toolsFor } from '../tools/tools.js';
import { webSearchTool } from '../tools/web-search-tool.js';
import type { AgentResult } from './agent-result.js';

/**
 * One research agent: it sees only its task (plus what the session already
 * searched and read), loops over the real tools until it calls
 * `generate_report`, runs out of cycles or time, then writes a fact-dense
 * intermediate report citing the session's source numbers.
 */
export async function runAgent(ctx: SessionContext, agentId: string, task: string): Promise<AgentResult> {
  const { deps, settings } = ctx;
  const model = settings.models.agent;
  const started = deps.clock.now();
  const reportBy = researchEndOf(ctx);
  const researchBy = Math.min(
    started + settings.agentTimeBudgetMs,
    reportBy - reserves(settings).agentReportMs,
  );
  const activity = (a: AgentActivity) => deps.emit({ type: 'agent_activity', agentId, activity: a });

  const messages: ChatMessage[] = [{ role: 'user', content: renderTask(ctx, task) }];
  const shown = new Set<number>();
  const loop: LoopView = { cycle: 0, turn: 0, calls: [], invalidTurns: 0 };

  // The system prompt, tools and task stay byte-identical across the agent's requests (and its report
  // request), so providers can cache them with the growing history; only the cycle line at the end changes.
  const system = deps.prompts.render(model.reasoning ? 'research-agent-reasoning' : 'research-agent', {
    current_date: currentDate(ctx),
    has_web_search: Boolean(deps.webSearch),
    has_internal_search: ctx.hasInternalSearch,
  });
  const offered = toolsFor(ctx, 'agent');
  const tools = specsFor(offered, 'agent');
  const limits = [
    ...researchLimits(settings.maxAgentCycles, researchBy),
    // Thinking does not spend a cycle, so turns are capped too: a model that only thinks cannot loop forever.
    stopWhen.turns(settings.maxAgentCycles * 3),
  ];
  const afterTurn = [
    stopWhen.interrupted(),
    stopWhen.modelFailed(),
    stopWhen.toolCalled(generateReportTool.name),
  ];
  // A model that only ever sends arguments our tools refuse is not researching: say so rather than "found nothing".
  const afterTools = [stopWhen.cancelled(), stopWhen.invalidTurns(MAX_INVALID_STEPS)];
  let stop: Stop | null = null;
  let refused: string | null = null;
  for (;;) {
    stop = firstStop(limits, ctx, loop);
    if (stop) break;
    const step = await toolStep(
      ctx,
      {
        model,
        purpose: 'agent',
        messages: [
          { role: 'system', content: system.text },
          ...messages,
          cycleStatus(ctx, 'research cycle', loop.cycle + 1, settings.maxAgentCycles),
        ],
        tools,
        toolChoice: 'required',
        maxTokens: system.settings.maxTokens,
        reasoningEffort: 'low',
        until: researchBy,
      },
      `${agentId}.${++loop.turn}`,
      'research with the tools, or call generate_report',
    );
    loop.step = step;
    loop.calls = step.kind === 'calls' ? step.calls : [];
    stop = firstStop(afterTurn, ctx, loop);
    if (stop) break;
    if (step.kind === 'text') {
      messages.push(...step.nudge);
      loop.cycle += 1;
      continue;
    }
    const { calls } = loop;
    messages.push(callsTurn(calls, step));
    const env = {
      ctx,
      role: 'agent' as const,
      id: agentId,
      until: researchBy,
      activity,
      queue: <T>(work: () => Promise<T>) => work(),
    };
    const outcomes = await Promise.all(calls.map((call) => runToolCall(call, offered, env)));
    let searchedWeb = false;
    calls.forEach((call, i) => {
      const outcome = outcomes[i]!;
      messages.push({ role: 'tool', toolCallId: call.id, content: outcome.content });
      for (const n of outcome.shown) shown.add(n);
      if (call.name === webSearchTool.name && outcome.shown.length > 0) searchedWeb = true;
    });
    const read = outcomes.flatMap((o) => o.read ?? []).map((n) => ctx.sources.get(n));
    const pages = read.flatMap((s) => (s?.url ? [{ url: s.url, title: s.title || s.url }] : []));
    if (pages.length > 0) deps.emit({ type: 'agent_read', agentId, pages });
    refused = allInvalid(outcomes);
    // The model works when it makes a research call our tools accept; until then, what it sent is the cause.
    if (refused === null) noteWorked(ctx.state, 'model');
    else noteFailure(ctx.state, 'model', refused);
    // Refused turns count only until the agent has found something to report on.
    loop.invalidTurns = refused === null || shown.size > 0 ? 0 : (loop.invalidTurns ?? 0) + 1;
    stop = firstStop(afterTools, ctx, loop);
    if (stop) break;
    if (searchedWeb && deps.pageReader) {
      messages.push({ role: 'user', content: deps.prompts.render('open-url-nudge', {}).text });
    }
    // Thinking is free: only a step that used a research tool spends a cycle.
    if (calls.some((c) => c.name !== thinkTool.name)) loop.cycle += 1;
  }

  // A cancel that came while the last turn ended otherwise still wins.
  if (stop === 'cancelled' || ctx.cancel.aborted) return { ok: false, reason: 'cancelled', cancelled: true };
  if (stop === 'invalid_calls')
    return { ok: false, reason: `the model kept sending tool calls with invalid arguments (${refused})` };
  if (stop === 'model_failed' && loop.step?.kind === 'failed') {
    if (shown.size === 0) return { ok: false, reason: errorText(loop.step.error) };
    ctx.log.warn(
      { agentId, err: loop.step.error },
      'agent model call failed; writing report from what was found',
    );
  }
  if (shown.size === 0) {
    return { ok: true, report: 'The research agent found no sources for this task.', sources: 0 };
  }
  activity({ kind: 'writing' });
  return writeReport(
    ctx,
    task,
    [{ role: 'system', content: system.text }, ...messages],
    tools,
    reportBy,
    shown.size,
  );
}

/** Research steps in a row whose every tool call had unusable arguments before the agent gives up. */
const MAX_INVALID_STEPS = 3;

/**
 * The agent's report, asked for at the end of its own conversation (same system prompt and tools, no
 * tool calls allowed), so the request repeats the whole prefix the provider has already cached.
 */
async function writeReport(
  ctx: SessionContext,
  task: string,
  conversation: ChatMessage[],
  tools: ToolSpec[],
  until: number,
  sources: number,
): Promise<AgentResult> {
  const { prompts } = ctx.deps;
  const instructions = prompts.render('intermediate-report', {});
  const query = prompts.render('intermediate-report-query', { task }).text;
  const ask = (withTools: boolean) =>
    callModel(ctx, {
      model: ctx.settings.models.agent,
      purpose: 'agent_report',
      messages: [...conversation, { role: 'user', content: `${instructions.text}\n\n${query}` }],
      ...(withTools ? { tools, toolChoice: 'none' as const } : {}),
      maxTokens: instructions.settings.maxTokens,
      reasoningEffort: 'low',
      until,
    });
  try {
    let response = await ask(true).catch((error) => {
      if (interruption(ctx, until)) throw error;
      // A server that refuses tools with tool_choice "none" gets the request without them.
      ctx.log.warn({ err: error }, 'agent report request with tools failed; asking without them');
      return null;
    });
    // A server that ignores tool_choice "none" may answer with a tool call instead of the report.
    if (!response?.text.trim()) response = await ask(false);
    const report = response.text.trim();
    if (!report) return { ok: false, reason: 'the agent wrote an empty report' };
    return { ok: true, report, sources };
  } catch (error) {
    const why = interruption(ctx, until);
    if (why === 'cancelled') return { ok: false, reason: 'cancelled', cancelled: true };
    if (why === 'deadline') return { ok: false, reason: 'ran out of time before writing its report' };
    return { ok: false, reason: `could not write its report (${errorText(error)})` };
  }
}

function renderTask(ctx: SessionContext, task: string): string {
  const recent = <T>(items: T[]) => items.slice(-LIMITS.continuationItems);
  const searches = recent(Object.keys(ctx.state.searches));
  const urls = recent(ctx.state.readUrls);
  return ctx.deps.prompts.render('agent-task', {
    task,
    prior_searches: searches.map((q) => `- ${q}`).join('\n'),
    prior_urls: urls.map((u) => `- ${u}`).join('\n'),
  }).text;
}
