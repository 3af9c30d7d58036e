/**
 * The contract between the code and `prompts/*.md`: every prompt the engine
 * renders and exactly the variables it passes. The loader refuses to start
 * when a prompt file declares anything else, so a typo is a start-up error
 * rather than a blank in a prompt.
 */
const ORCHESTRATOR_VARIABLES = [
  'current_date',
  'research_plan',
  'max_parallel_agents',
  'has_web_search',
  'has_internal_search',
] as const;
const AGENT_VARIABLES = ['current_date', 'has_web_search', 'has_internal_search'] as const;

export const PROMPT_CATALOG = {
  'research-request': [
    'question',
    'clarification_questions',
    'clarification_answer',
    'previous_research',
    'discussion',
    'files',
  ],
  clarification: ['current_date', 'max_questions'],
  'research-plan': ['current_date', 'max_steps'],
  'research-plan-reminder': ['max_steps'],
  orchestrator: ORCHESTRATOR_VARIABLES,
  'orchestrator-reasoning': ORCHESTRATOR_VARIABLES,
  'first-cycle-reminder': [],
  'requester-steering': ['text'],
  'research-more': [],
  'cycle-status': ['current_cycle', 'max_cycles', 'kind'],
  'research-agent': AGENT_VARIABLES,
  'research-agent-reasoning': AGENT_VARIABLES,
  'agent-task': ['task', 'prior_searches', 'prior_urls'],
  'open-url-nudge': [],
  'intermediate-report': [],
  'intermediate-report-query': ['task'],
  'final-report': ['current_date'],
  'final-report-reminder': ['research_plan'],
  'final-report-merge': ['current_date', 'research_plan'],
  'task-plan': ['current_date', 'max_tasks', 'may_ask', 'answer_schema'],
  'task-instructions': ['current_date'],
  'task-instructions-request': ['request', 'task', 'dependency_findings', 'requester_notes'],
  'citation-check': ['answer_schema'],
  'citation-terms': ['answer_schema'],
  'report-charts': ['answer_schema'],
  'coverage-check': ['research_plan', 'answer_schema'],
  'coverage-gap': ['gaps'],
  'report-question': ['current_date', 'answer_schema'],
  'same-question': ['answer_schema'],
} as const satisfies Record<string, readonly string[]>;

export type PromptName = keyof typeof PROMPT_CATALOG;

/** Values are strings, or booleans for Mustache sections (`{{#has_web_search}}`). */
export type PromptVariables<N extends PromptName> = {
  [K in (typeof PROMPT_CATALOG)[N][number]]: string | boolean;
};
