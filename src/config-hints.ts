/** What to set a variable to when its value is invalid (config.ts says which variable). */
export const HINTS: Readonly<Record<string, string>> = {
  OPENAI_BASE_URL: 'set it to the base URL of an OpenAI-compatible server, e.g. http://localhost:11434/v1',
  MODEL_REASONING: 'set it to auto, true or false',
  REASONING_EFFORT: 'set it to low, medium or high',
  LLM_MAX_RETRIES: 'set it to a whole number from 0 to 20',
  MAX_PARALLEL_AGENTS: 'set it to a whole number from 1 to 10',
  RESEARCH_BACKEND: 'set it to agents or deep-research-api',
  CITATION_CHECK: 'set it to model, lexical or off',
  COVERAGE_CHECK: 'set it to true or false',
  DEEP_RESEARCH_BASE_URL: 'set it to the base URL of the Responses API, e.g. https://api.openai.com/v1',
  MAX_TASKS: 'set it to a whole number from 2 to 6',
  SEARCH_PROVIDER: 'set it to tavily, brave, exa, searxng or none',
  SEARXNG_URL: 'set it to the base URL of your SearXNG instance, e.g. http://searxng:8080',
  ALLOW_PRIVATE_URLS: 'set it to true or false',
  SEARCH_REQUESTS_PER_SECOND: "set it to a positive number, e.g. 1 for Brave's free plan, or unset it",
  LOG_LEVEL: 'set it to fatal, error, warn, info, debug, trace or silent',
  DATABASE_URL:
    'set it to a connection string like postgres://user:password@host:5432/dbname, or unset it for the embedded database',
  RETENTION_DAYS: 'set it to a whole number of days',
  LEASE_SECONDS: 'set it to a number of seconds from 5 to 600',
  SLACK_BOT_TOKEN: "set it to the app's Bot User OAuth Token (OAuth & Permissions)",
  SLACK_APP_TOKEN:
    'set it to an app-level token with connections:write (Basic Information), or unset it for HTTP mode',
  SLACK_API_URL: 'set it to the base URL of the Slack Web API, e.g. https://slack.com/api/',
  PORT: 'set it to a port number',
  SLACK_UPDATES_PER_MINUTE:
    'set it to a whole number from 1 to 100 (Slack allows about 50 message edits a minute per workspace)',
  MAX_QUESTION_CHARS: 'set it to a whole number from 20 to 3000',
  KB_ADMINS: 'set it to Slack user ids separated by commas, e.g. U0123ABCD,U0456EFGH',
  FILE_MAX_MB: 'set it to a number of megabytes, e.g. 20',
  DELIVERY_DEADLINE_HOURS: 'set it to a number of hours, e.g. 24',
  SUGGESTED_PROMPTS: 'set it to one to four questions separated by "|", each at most 500 characters',
};
