/** Tool names are part of the contract: prompts and tests use them. */
export const TOOL = {
  generatePlan: 'generate_plan',
  researchAgent: 'research_agent',
  think: 'think_tool',
  generateReport: 'generate_report',
  webSearch: 'web_search',
  openUrl: 'open_url',
  internalSearch: 'internal_search',
} as const;

/** The reply to think_tool: the reasoning itself is the point, the result only lets the model continue. */
export const THINK_ACK = 'Acknowledged, please continue.';
