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
