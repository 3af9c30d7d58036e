import { z } from 'zod';
import {
  BACKEND_ENV,
  BACKEND_HINTS,
  BACKEND_NAMES,
  BACKEND_PRICES,
  backendNamed,
  readBackendSettings,
} from './backends/backend-list.js';
import {
  flag,
  optionalText,
  optionalUrl,
  positiveInt,
  positiveNumber,
  settingsMessage,
  splitList,
} from './config-fields.js';
import { HINTS } from './config-hints.js';
import { parseMcpServers } from './config-mcp.js';
import { READING_FIELDS, readLimits } from './config-reading.js';
import type { Config, SearchProviderName } from './config-shape.js';
import { defaultDataDir } from './data-dir.js';
import { DEFAULT_MODEL_PRICES, HOSTED_SEARCH_PRICE_PER_1K, ModelPrices } from './model-prices.js';
import { ConfigError } from './ports/errors.js';
import { SECRET } from './redact-secrets.js';

const DEFAULT_SUGGESTED_PROMPTS = [
  'How do heat pumps compare with gas boilers on running costs in 2025?',
  'What changed in EU AI regulation this year, and what does it mean for a small software company?',
  'Which open-source vector databases are used in production, and what are their trade-offs?',
];

/**
 * Every environment variable the app reads. Each entry's `hint` says what to
 * set; the README lists the same variables.
 */
const schema = z.object({
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  RESEARCH_MODEL: z.string().trim().min(1).default('gpt-5.1'),
  ORCHESTRATOR_MODEL: optionalText,
  AGENT_MODEL: optionalText,
  REPORT_MODEL: optionalText,
  MODEL_REASONING: z.enum(['auto', 'true', 'false']).default('auto'),
  REASONING_EFFORT: z.enum(['low', 'medium', 'high']).default('medium'),
  LLM_TIMEOUT_SECONDS: positiveNumber.default(300),
  LLM_FIRST_TOKEN_SECONDS: positiveNumber.default(60),
  LLM_STALL_SECONDS: positiveNumber.default(30),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  MODEL_PRICES: optionalText.transform((v, ctx) => {
    if (!v) return {};
    try {
      return ModelPrices.parse(JSON.parse(v));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON like {"my-model":{"input":1,"output":4}}' });
      return z.NEVER;
    }
  }),
  SEARCH_PRICE_PER_1K: z.coerce.number().min(0).default(0),
  // Which backend researches new sessions (backends/backend-list.ts lists them; each adds its own variables).
  RESEARCH_BACKEND: z.enum(BACKEND_NAMES).default('agents'),
  // USD per 1,000 searches a hosted backend makes; unset: the price its provider lists (OpenAI $10, Google $14).
  HOSTED_SEARCH_PRICE_PER_1K: z.coerce.number().min(0).optional(),
  // OpenAI's webhook signing secret (whsec_…): hosted tasks wake on response.* webhooks at /openai/webhooks.
  OPENAI_WEBHOOK_SECRET: optionalText,
  ...BACKEND_ENV,
  MAX_PARALLEL_AGENTS: z.coerce.number().int().min(1).max(10).default(3),
  MAX_CYCLES: positiveInt.optional(),
  MAX_AGENT_CYCLES: positiveInt.default(8),
  // Unset: the researching backend's own (20 for the agents, 60 for hosted backends, whose tasks take minutes).
  TIME_BUDGET_MINUTES: positiveNumber.optional(),
  AGENT_TIME_BUDGET_MINUTES: positiveNumber.default(12),
  TOKEN_BUDGET: positiveInt.default(2_000_000),
  TOOL_CALL_BUDGET: positiveInt.default(200),
  TOOL_TIMEOUT_SECONDS: positiveNumber.default(60),
  PAGE_READ_SECONDS: positiveNumber.default(30),
  REPORT_INPUT_TOKENS: positiveInt.default(120_000),
  // After the report: each cited claim checked against its sources, by the model or by lexical evidence alone.
  CITATION_CHECK: z.enum(['model', 'lexical', 'off']).default('model'),
  CITATION_CHECK_SECONDS: positiveNumber.default(120),
  CITATION_CHECK_TOKENS: positiveInt.default(60_000),
  // Before the report: the findings checked against the plan; a thin step earns one more cycle.
  COVERAGE_CHECK: flag.default(true),
  SEARCH_PROVIDER: optionalText.pipe(z.enum(['tavily', 'brave', 'exa', 'searxng', 'none']).optional()),
  TAVILY_API_KEY: optionalText,
  BRAVE_API_KEY: optionalText,
  EXA_API_KEY: optionalText,
  SEARXNG_URL: optionalUrl,
  SEARCH_REQUESTS_PER_SECOND: positiveNumber.optional(),
  ALLOW_PRIVATE_URLS: flag,
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  DATABASE_TIMEOUT_SECONDS: positiveNumber.default(20),
  // Unset: the user's data directory (see defaultDataDir), the same wherever a command runs.
  DATA_DIR: optionalText,
  RETENTION_DAYS: positiveInt.default(90),
  CLARIFY_TIMEOUT_HOURS: positiveNumber.default(24),
  // A new question that repeats a report from the last REUSE_DAYS is offered that report first; 0: never.
  REUSE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  MAX_CONCURRENT_SESSIONS: positiveInt.default(4),
  MAX_SESSIONS_PER_USER: positiveInt.default(2),
  // Daily spending caps in USD (UTC days); unset: no cap.
  USER_DAILY_BUDGET_USD: positiveNumber.optional(),
  WORKSPACE_DAILY_BUDGET_USD: positiveNumber.optional(),
  LEASE_SECONDS: z.coerce.number().min(5).max(600).default(30),
  LOG_LEVEL: optionalText.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  ),
  // The CLI's pager for a long report in a terminal (default: less); "cat" turns paging off.
  PAGER: optionalText,
  // The CLI's plan editor ([e]dit at the plan review); VISUAL wins, as in other tools.
  VISUAL: optionalText,
  EDITOR: optionalText,
  SLACK_BOT_TOKEN: optionalText.pipe(z.string().startsWith('xoxb-', 'must start with xoxb-').optional()),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.pipe(z.string().startsWith('xapp-', 'must start with xapp-').optional()),
  SLACK_API_URL: optionalUrl,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // The address the HTTP listener binds: every interface by default; 127.0.0.1 behind a local proxy.
  HOST: optionalText,
  SLACK_UPDATES_PER_MINUTE: z.coerce.number().int().min(1).max(100).default(45),
  MAX_QUESTION_CHARS: z.coerce.number().int().min(20).max(3000).default(2000),
  // Slack user ids that may add documents to the knowledge base from Slack (/research kb add), comma-separated.
  KB_ADMINS: z
    .string()
    .default('')
    .transform(splitList(','))
    .pipe(z.array(z.string().regex(/^[UW][A-Z0-9]+$/))),
  ...READING_FIELDS,
  // MCP servers research may use, as JSON or the path of a JSON file (see config-mcp.ts).
  MCP_SERVERS: optionalText,
  MCP_TIMEOUT_SECONDS: positiveNumber.default(30),
  DELIVERY_DEADLINE_HOURS: positiveNumber.default(24),
  // How long a plan waits for [Start now] / [Edit plan] before research starts by itself; 0 starts at once.
  PLAN_REVIEW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  // auto: streamed progress and a canvas with its summary in the thread, each where Slack allows it.
  REPORT_FORMAT: optionalText.pipe(z.enum(['auto', 'canvas', 'messages']).default('auto')),
  // Example questions the app's Messages tab offers, separated by "|" (Slack shows at most 4).
  SUGGESTED_PROMPTS: z
    .string()
    .default(DEFAULT_SUGGESTED_PROMPTS.join(' | '))
    .transform(splitList('|'))
    .pipe(z.array(z.string().max(500)).min(1).max(4)),
});

export type { Config, SearchProviderName } from './config-shape.js';

/** Every variable the configuration reads (.env.example lists them all; a test keeps it so). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

/** Parses the environment once; bad variables stop start-up with one line each, all named at once. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  // `FOO=` in an env file means "not set", so defaults apply.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const named = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]) as keyof typeof schema.shape;
      if (named.has(name)) continue;
      const got = env[name] === undefined || SECRET.test(name) ? '' : ` (got "${env[name]}")`;
      const hint =
        HINTS[name] ?? BACKEND_HINTS[name] ?? `set it to a valid value or unset it to use the default`;
      named.set(name, `${name} is invalid${got}: ${issue.message}; ${hint}.`);
    }
    throw new ConfigError('invalid_env', settingsMessage([...named.values()]));
  }
  const e = parsed.data;
  const backend = backendNamed(e.RESEARCH_BACKEND)!;
  const config: Config = {
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseURL: e.OPENAI_BASE_URL,
      webhookSecret: e.OPENAI_WEBHOOK_SECRET,
      maxRetries: e.LLM_MAX_RETRIES,
      timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000,
      firstTokenMs: e.LLM_FIRST_TOKEN_SECONDS * 1000,
      stallMs: e.LLM_STALL_SECONDS * 1000,
    },
    models: {
      orchestrator: e.ORCHESTRATOR_MODEL ?? e.RESEARCH_MODEL,
      agent: e.AGENT_MODEL ?? e.RESEARCH_MODEL,
      report: e.REPORT_MODEL ?? e.RESEARCH_MODEL,
      reasoning: e.MODEL_REASONING === 'auto' ? 'auto' : e.MODEL_REASONING === 'true',
      effort: e.REASONING_EFFORT,
      setBy: {
        orchestrator: e.ORCHESTRATOR_MODEL ? 'ORCHESTRATOR_MODEL' : 'RESEARCH_MODEL',
        agent: e.AGENT_MODEL ? 'AGENT_MODEL' : 'RESEARCH_MODEL',
        report: e.REPORT_MODEL ? 'REPORT_MODEL' : 'RESEARCH_MODEL',
      },
    },
    prices: {
      models: { ...DEFAULT_MODEL_PRICES, ...BACKEND_PRICES, ...e.MODEL_PRICES },
      overrides: e.MODEL_PRICES,
      searchPer1k: e.SEARCH_PRICE_PER_1K,
      hostedSearchPer1k:
        e.HOSTED_SEARCH_PRICE_PER_1K ?? backend.searchPricePer1k ?? HOSTED_SEARCH_PRICE_PER_1K,
    },
    research: { backend: e.RESEARCH_BACKEND, settings: readBackendSettings(e) },
    limits: {
      maxParallelAgents: e.MAX_PARALLEL_AGENTS,
      maxCycles: e.MAX_CYCLES ?? null,
      maxAgentCycles: e.MAX_AGENT_CYCLES,
      timeBudgetMs: (e.TIME_BUDGET_MINUTES ?? backend.timeBudgetMinutes) * 60_000,
      agentTimeBudgetMs: e.AGENT_TIME_BUDGET_MINUTES * 60_000,
      tokenBudget: e.TOKEN_BUDGET,
      toolCallBudget: e.TOOL_CALL_BUDGET,
      toolTimeoutMs: e.TOOL_TIMEOUT_SECONDS * 1000,
      reportInputTokens: e.REPORT_INPUT_TOKENS,
    },
    checks: {
      citations: {
        mode: e.CITATION_CHECK,
        timeMs: e.CITATION_CHECK_SECONDS * 1000,
        tokens: e.CITATION_CHECK_TOKENS,
      },
      coverage: e.COVERAGE_CHECK,
    },
    search: {
      provider: e.SEARCH_PROVIDER ?? firstConfiguredProvider(e),
      tavilyKey: e.TAVILY_API_KEY,
      braveKey: e.BRAVE_API_KEY,
      exaKey: e.EXA_API_KEY,
      searxngUrl: e.SEARXNG_URL,
      requestsPerSecond: e.SEARCH_REQUESTS_PER_SECOND,
      allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
      pageReadMs: e.PAGE_READ_SECONDS * 1000,
    },
    database: {
      url: e.DATABASE_URL,
      dataDir: e.DATA_DIR ?? defaultDataDir(env),
      retentionDays: e.RETENTION_DAYS,
      queryTimeoutMs: e.DATABASE_TIMEOUT_SECONDS * 1000,
    },
    jobs: {
      clarifyTimeoutHours: e.CLARIFY_TIMEOUT_HOURS,
      reuseDays: e.REUSE_DAYS,
      concurrentSessions: e.MAX_CONCURRENT_SESSIONS,
      sessionsPerUser: e.MAX_SESSIONS_PER_USER,
      leaseMs: e.LEASE_SECONDS * 1000,
      spendCaps: { userDailyUsd: e.USER_DAILY_BUDGET_USD, workspaceDailyUsd: e.WORKSPACE_DAILY_BUDGET_USD },
    },
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      port: e.PORT,
      host: e.HOST,
      updatesPerMinute: e.SLACK_UPDATES_PER_MINUTE,
      maxQuestionChars: e.MAX_QUESTION_CHARS,
      kbAdmins: e.KB_ADMINS,
      deliveryDeadlineHours: e.DELIVERY_DEADLINE_HOURS,
      suggestedPrompts: e.SUGGESTED_PROMPTS,
      reportFormat: e.REPORT_FORMAT,
      planReviewSeconds: e.PLAN_REVIEW_SECONDS,
    },
    reading: readLimits(e),
    mcp: { servers: parseMcpServers(e.MCP_SERVERS), timeoutMs: e.MCP_TIMEOUT_SECONDS * 1000 },
    logLevel: e.LOG_LEVEL,
    pager: e.PAGER ?? 'less -FRX',
    editor: e.VISUAL ?? e.EDITOR,
  };
  return Object.freeze(config);
}

function firstConfiguredProvider(e: z.output<typeof schema>): SearchProviderName | null {
  if (e.TAVILY_API_KEY) return 'tavily';
  if (e.BRAVE_API_KEY) return 'brave';
  if (e.EXA_API_KEY) return 'exa';
  if (e.SEARXNG_URL) return 'searxng';
  return null;
}
