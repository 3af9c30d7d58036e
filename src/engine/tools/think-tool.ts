import { z } from 'zod';
import { defineTool } from './define-tool.js';

/** The reply to think_tool: the reasoning itself is the point, the result only lets the model continue. */
export const THINK_ACK = 'Acknowledged, please continue.';

/** A pause to reason between steps, for models that do not reason natively. */
export const thinkTool = defineTool({
  name: 'think_tool',
  description:
    'Reason before the next step: what was found, what is missing, what to do next. Write paragraphs, not lists.',
  input: z.object({ reasoning: z.string().describe('Your reasoning.') }),
  isEnabled: (ctx, role) =>
    (role === 'agent' && !ctx.settings.models.agent.reasoning) ||
    (role === 'orchestrator' && !ctx.settings.models.orchestrator.reasoning),
  execute({ reasoning }, { ctx, role, activity }) {
    if (role === 'orchestrator') ctx.deps.emit({ type: 'thinking', text: reasoning });
    else activity({ kind: 'thinking' });
    return { content: THINK_ACK, shown: [] };
  },
});
