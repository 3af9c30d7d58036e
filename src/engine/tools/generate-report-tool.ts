import { z } from 'zod';
import { defineTool } from './define-tool.js';

/** Ends the loop that sees it: the orchestrator's research, or an agent's. */
export const generateReportTool = defineTool({
  name: 'generate_report',
  description: {
    orchestrator:
      'Generate the final research report from all findings. Call it once the plan is covered and research is complete.',
    agent: 'Write your report on the task from what you found. Call it when your research is complete.',
  },
  input: z.object({}),
  isEnabled: (_ctx, role) => role === 'orchestrator' || role === 'agent',
});
