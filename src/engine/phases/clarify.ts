import { callModel, currentDate, type SessionContext } from '../session-context.js';
import { LIMITS } from '../settings.js';
import { toolSpec } from '../tools/define-tool.js';
import { generatePlanTool } from '../tools/generate-plan-tool.js';
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
    tools: [toolSpec(generatePlanTool, 'clarify')],
    toolChoice: 'auto',
    maxTokens: system.settings.maxTokens,
    until: deps.clock.now() + settings.llmTimeoutMs,
  });
  const questions = response.text.trim();
  if (response.toolCalls.some((c) => c.name === generatePlanTool.name) || !questions)
    return { kind: 'proceed' };
  return { kind: 'ask', questions };
}
