import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import { requireModelAccess } from './config.js';
import { ConfigError } from './engine/errors.js';
import type { EngineDeps } from './engine/session-context.js';
import type { EngineSettings } from './engine/settings.js';
import { countTokens } from './llm/count-tokens.js';
import { isReasoningModelName } from './llm/model-traits.js';
import { OpenAiLlm } from './llm/openai-llm.js';
import { systemClock } from './ports/clock.js';
import type { Logger } from './ports/logger.js';
import type { WebSearch } from './ports/web-search.js';
import { loadPrompts } from './prompts/load-prompts.js';
import { type Database, openDatabase } from './store/database.js';
import { migrate } from './store/migrate.js';
import { SessionStore } from './store/session-store.js';

export const PROMPTS_DIR = fileURLToPath(new URL('../prompts/', import.meta.url));
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** Opens the database (Postgres or the embedded default), brings its schema up to date and applies retention. */
export async function openStore(
  config: Config,
): Promise<{ db: Database; sessions: SessionStore; applied: string[] }> {
  const db = await openDatabase({ url: config.database.url, dataDir: config.database.dataDir });
  try {
    const { applied } = await migrate(db.pool, MIGRATIONS_DIR);
    const sessions = new SessionStore(db.pool);
    // Retention runs at every start: finished sessions past RETENTION_DAYS, Slack event keys past a day.
    await sessions.purgeSessions(config.database.retentionDays);
    await sessions.purgeProcessedEvents(24);
    return { db, sessions, applied };
  } catch (error) {
    await db.close();
    throw error;
  }
}

export function engineSettings(config: Config): EngineSettings {
  const spec = (name: string) => ({
    name,
    reasoning: config.models.reasoning === 'auto' ? isReasoningModelName(name) : config.models.reasoning,
  });
  return {
    models: {
      orchestrator: spec(config.models.orchestrator),
      agent: spec(config.models.agent),
      report: spec(config.models.report),
    },
    reasoningEffort: config.models.effort,
    ...config.limits,
    llmTimeoutMs: config.openai.timeoutMs,
    prices: config.prices,
  };
}

/** The engine's real adapters, built once from config. */
export function engineDeps(config: Config, logger: Logger): Omit<EngineDeps, 'emit' | 'saveCheckpoint'> {
  const access = requireModelAccess(config);
  const webSearch = createWebSearch(config);
  if (!webSearch) {
    throw new ConfigError(
      'no_search_provider',
      'No search provider is configured: set SEARCH_PROVIDER to tavily, brave, exa or searxng, with its API key or URL.',
    );
  }
  return {
    llm: new OpenAiLlm({ ...access, maxRetries: config.openai.maxRetries, logger, countTokens }),
    prompts: loadPrompts(PROMPTS_DIR),
    webSearch,
    countTokens,
    clock: systemClock,
    logger,
  };
}

function createWebSearch(config: Config): WebSearch | undefined {
  const provider = config.search.provider;
  if (provider === null || provider === 'none') return undefined;
  // Provider adapters arrive with the research-tools work; naming one before then must not fail silently.
  throw new ConfigError(
    'search_provider_unavailable',
    `SEARCH_PROVIDER=${provider} is not supported by this version yet; no web search provider adapters are installed.`,
  );
}
