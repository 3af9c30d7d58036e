import { ModelOutputError } from '../../ports/errors.js';
import { callModel, currentDate, deadlineOf, type SessionContext } from '../session-context.js';
import { LIMITS } from '../settings.js';
import { researchRequestText } from './research-request.js';

/** Writes the numbered research plan (at most 6 steps), streaming it as it comes. */
export async function writePlan(ctx: SessionContext): Promise<string> {
  const { deps, settings } = ctx;
  const maxSteps = String(LIMITS.maxPlanSteps);
  const system = deps.prompts.render('research-plan', {
    current_date: currentDate(ctx),
    max_steps: maxSteps,
  });
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await callModel(ctx, {
      model: settings.models.orchestrator,
      purpose: 'plan',
      messages: [
        { role: 'system', content: system.text },
        { role: 'user', content: researchRequestText(deps.prompts, ctx.state.request) },
        {
          role: 'user',
          content: deps.prompts.render('research-plan-reminder', { max_steps: maxSteps }).text,
        },
      ],
      maxTokens: system.settings.maxTokens,
      until: deadlineOf(ctx),
      onTextDelta: (text) => deps.emit({ type: 'plan_delta', text }),
    });
    const plan = response.text.trim();
    if (plan) return plan;
  }
  throw new ModelOutputError('empty_plan', 'The model returned an empty research plan twice.');
}
