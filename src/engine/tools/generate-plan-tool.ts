import { z } from 'zod';
import { defineTool } from './define-tool.js';

/** The clarification step's signal that the question is clear: no questions, go on to the plan. */
export const generatePlanTool = defineTool({
  name: 'generate_plan',
  description: "No clarification is needed: generate a research plan for the user's query.",
  input: z.object({}),
  isEnabled: (_ctx, role) => role === 'clarify',
});
