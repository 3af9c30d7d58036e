import type { BackendName, BackendSettings } from '../backends/backend-list.js';
import type { CitationCheckSettings } from '../engine/settings.js';
import type { ModelApiSetting } from '../llm/model-apis.js';
import type { ReadLimits } from '../ports/document-reading.js';
import type { ModelPrice } from '../ports/usage.js';
import type { SearchProviderName, SearchSettings } from '../search/web/search-settings.js';
import type { ScheduleLimits } from '../sessions/records/schedule-limits.js';
import type { SpendCaps } from '../sessions/spend-caps.js';
import type { McpServerConfig } from './mcp-servers.js';

/** The configuration as the rest of the process reads it; only loadConfig (load-config.ts) builds one, from the environment. */
export type { SearchProviderName };

export interface Config {
  openai: {
    apiKey?: string;
    baseURL?: string;
    /** Verifies OpenAI's webhooks; with it, a hosted request's end wakes its task instead of the next poll. */
    webhookSecret?: string;
    maxRetries: number;
    timeoutMs: number;
    firstTokenMs: number;
    stallMs: number;
    /** MODEL_API: the wire API of the research models (auto: per server and model). */
    api: ModelApiSetting;
  };
  models: {
    orchestrator: string;
    agent: string;
    report: string;
    reasoning: 'auto' | boolean;
    effort: 'low' | 'medium' | 'high';
    /** The variable each role's model was set by (for sentences that name the fix). */
    setBy: Record<'orchestrator' | 'agent' | 'report', string>;
  };
  prices: {
    models: Record<string, ModelPrice>;
    /** What MODEL_PRICES set (over the built-in table). */
    overrides: Record<string, ModelPrice>;
    searchPer1k: number;
    hostedSearchPer1k: number;
  };
  research: {
    backend: BackendName;
    /** Each backend's own settings, by name (its folder reads them). */
    settings: BackendSettings;
  };
  limits: {
    maxParallelAgents: number;
    maxCycles: number | null;
    maxAgentCycles: number;
    timeBudgetMs: number;
    agentTimeBudgetMs: number;
    tokenBudget: number;
    toolCallBudget: number;
    toolTimeoutMs: number;
    reportInputTokens: number;
  };
  checks: { citations: CitationCheckSettings; coverage: boolean; charts: boolean };
  search: SearchSettings;
  database: {
    url?: string;
    dataDir: string;
    retentionDays: number;
    /** AUDIT_RETENTION_DAYS: how long the audit trail keeps a row. */
    auditRetentionDays: number;
    queryTimeoutMs: number;
  };
  jobs: {
    clarifyTimeoutHours: number;
    /** A repeated question is offered the earlier report from this many days back (0: never). */
    reuseDays: number;
    concurrentSessions: number;
    sessionsPerUser: number;
    leaseMs: number;
    /** No schedule runs more often than this (SCHEDULE_MIN_INTERVAL). */
    scheduleMinInterval: 'daily' | 'weekly' | 'monthly';
    /** Active schedules per owner and per channel (SCHEDULES_PER_PERSON, SCHEDULES_PER_CHANNEL). */
    scheduleLimits: ScheduleLimits;
    spendCaps: SpendCaps;
  };
  slack: {
    botToken?: string;
    signingSecret?: string;
    appToken?: string;
    apiUrl?: string;
    port: number;
    /** Unset: every interface. */
    host?: string;
    updatesPerMinute: number;
    maxQuestionChars: number;
    /** Slack users who may add documents to the knowledge base from Slack. */
    kbAdmins: string[];
    /** How long Slack writes are retried before a session is undeliverable. */
    deliveryDeadlineHours: number;
    suggestedPrompts: string[];
    /** How a report goes to Slack: a canvas with a summary in the thread, or the report itself in the thread. */
    reportFormat: 'auto' | 'canvas' | 'messages';
    planReviewSeconds: number;
  };
  /** What one untrusted document may cost to read (FILE_MAX_MB, READ_*). */
  reading: ReadLimits;
  /** MCP servers research may use (MCP_SERVERS), and how long one call may take. */
  mcp: { servers: McpServerConfig[]; timeoutMs: number };
  logLevel?: string;
  /** Shell command a long report is piped through in a terminal. */
  pager: string;
  /** The command the CLI edits a plan with (VISUAL, else EDITOR); unset: typed at the prompt. */
  editor?: string;
}
