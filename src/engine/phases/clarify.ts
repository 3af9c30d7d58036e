import { callModel, currentDate, type SessionContext } from '../session-context.js';
import { LIMITS } from '../settings.js';
import { TOOL } from '../tools/tool-names.js';
import { TOOL_SPECS } from '../tools/tool-specs.js';
import { researchRequestText } from './research-request.js';

export type ClarifyResult = { kind: 'proceed' } | { kind: 'ask'; questions: string };

/**
 * Asks the model whether the question needs clarifying. The signal is the
 * tool call: `generate_plan` means clear, plain text is the questions.
 */
export async function clarify(ctx: SessionContext): Promise<ClarifyResult> {
  const { deps, settings } = ctx;
  const system = deps.prompts.render('clarification', {
    current_date: currentDate(ctx),
    max_questions: String(LIMITS.maxClarifyingQuestions),
  });
  const response = await callModel(ctx, {
    model: settings.models.orchestrator,
    purpose: 'clarify',
    messages: [
      { role: 'system', content: system.text },
      { role: 'user', content: researchRequestText(deps.prompts, ctx.state.request) },
    ],
    tools: [TOOL_SPECS.generatePlan],
    toolChoice: 'auto',
    maxTokens: system.settings.maxTokens,
    until: deps.clock.now() + settings.llmTimeoutMs,
  });
  const questions = response.text.trim();
  if (response.toolCalls.some((c) => c.name === TOOL.generatePlan) || !questions) return { kind: 'proceed' };
  return { kind: 'ask', questions };
}
