import { fileURLToPath } from 'node:url';
import { configuredBackends } from './backends/backend-list.js';
import type { Config } from './config/load-config.js';
import { requireModelAccess, requireResearchSettings, sharedAccess } from './config/requirements.js';
import type { EngineBase } from './engine/session-context.js';
import type { EngineSettings } from './engine/settings.js';
import { countTokens } from './llm/count-tokens.js';
import { ModelApis } from './llm/model-apis.js';
import type { ServerAccess } from './llm/model-catalog.js';
import { ModelLifecycle, type WatchedModel } from './llm/model-lifecycle.js';
import { isReasoningModelName } from './llm/model-traits.js';
import { OpenAiLlm } from './llm/openai-llm.js';
import { meteredLlm, meteredPageReader, meteredWebSearch } from './metrics/metered-ports.js';
import { type Metrics, noMetrics } from './metrics/metrics.js';
import { priceSource } from './model-prices.js';
import { systemClock } from './ports/clock.js';
import type { DocumentReading } from './ports/document-reading.js';
import { noResearchTools } from './ports/errors.js';
import type { ModelSpec } from './ports/llm.js';
import type { Logger } from './ports/logger.js';
import { loadPrompts } from './prompts/load-prompts.js';
import { urlWithoutSecrets } from './redact-secrets.js';
import { McpTools } from './search/mcp/mcp-tools.js';
import { HttpPageReader } from './search/pages/http-page-reader.js';
import { createWebSearch } from './search/web/create-web-search.js';
import type { Store } from './sessions/records/store.js';

export const PROMPTS_DIR = fileURLToPath(new URL('../prompts/', import.meta.url));
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/**
 * Opens the database (Postgres or the embedded default), brings its schema up
 * to date and applies retention. A database that cannot be reached or refuses
 * the login is one line naming DATABASE_URL.
 */
export function engineSettings(config: Config): EngineSettings {
  const spec = (name: string) => modelSpec(config, name);
  return {
    models: {
      orchestrator: spec(config.models.orchestrator),
      agent: spec(config.models.agent),
      report: spec(config.models.report),
    },
    reasoningEffort: config.models.effort,
    ...config.limits,
    citationCheck: config.checks.citations,
    coverageCheck: config.checks.coverage,
    charts: config.checks.charts,
    llmTimeoutMs: config.openai.timeoutMs,
    prices: config.prices,
    modelServer: urlWithoutSecrets(config.openai.baseURL ?? 'https://api.openai.com/v1'),
  };
}

/** A model as the engine calls it: whether it reasons, from MODEL_REASONING or its name. */
function modelSpec(config: Config, name: string): ModelSpec {
  return {
    name,
    reasoning: config.models.reasoning === 'auto' ? isReasoningModelName(name) : config.models.reasoning,
  };
}

/** The engine's real adapters, built once per process (so provider rate limits are shared by every session). */
export function engineDeps(
  config: Config,
  logger: Logger,
  {
    metrics = noMetrics,
    unreachableIsFatal = false,
    models,
    reader,
  }: {
    metrics?: Metrics;
    unreachableIsFatal?: boolean;
    models?: ModelLifecycle;
    reader?: DocumentReading;
  } = {},
): EngineBase {
  const search = createWebSearch(config.search);
  return {
    llm: meteredLlm(researchLlm(config, logger, { unreachableIsFatal, models }), metrics, config.prices),
    prompts: loadPrompts(PROMPTS_DIR),
    webSearch: search && meteredWebSearch(search, metrics),
    pageReader: meteredPageReader(
      new HttpPageReader({
        allowPrivate: config.search.allowPrivateUrls,
        deadlineMs: config.search.pageReadMs,
        reader,
      }),
      metrics,
    ),
    ...(config.mcp.servers.length
      ? { externalTools: new McpTools(config.mcp.servers, config.mcp.timeoutMs, logger) }
      : {}),
    countTokens,
    clock: systemClock,
    logger,
  };
}

/**
 * The engine's adapters plus this database's knowledge base and source store. Refuses to start
 * when there is nothing to research with: no search provider and no documents
 * (unless research searches by itself: a hosted deep-research model).
 */
export async function withKnowledgeBase(
  engine: EngineBase,
  { knowledge, sources }: Pick<Store, 'knowledge' | 'sources'>,
  { searchRequired = true } = {},
): Promise<EngineBase> {
  const searches = engine.webSearch || engine.externalTools || (await knowledge.hasDocuments());
  if (searchRequired && !searches) throw noResearchTools();
  return { ...engine, knowledgeBase: knowledge, sourceTexts: sources };
}

/**
 * The models the settings name, each with the variable that sets it and its
 * server: the research models on OPENAI_BASE_URL, and the hosted models of
 * the backend that researches (of every backend: `allBackends`, for doctor).
 * A server the settings give no access to is left out (its check says so).
 */
export function watchedModels(config: Config, { allBackends = false } = {}): WatchedModel[] {
  const watched: WatchedModel[] = [];
  const add = (
    variable: string,
    model: string,
    server: ServerAccess,
    addressVariable: string,
    apiChosen = false,
  ) => {
    if (watched.some((w) => w.variable === variable && w.model === model)) return;
    watched.push({
      variable,
      model,
      server,
      addressVariable,
      priceSource: priceSource(model, config.prices.overrides),
      ...(apiChosen ? { apiChosen } : {}),
    });
  };
  const research = attempt(() => requireModelAccess(config));
  if (research)
    for (const role of ['orchestrator', 'agent', 'report'] as const)
      add(config.models.setBy[role], config.models[role], research, 'OPENAI_BASE_URL', true);
  // No key for a server: research with it is refused before it starts, with its own sentence.
  const { current, all } = configuredBackends(config.research);
  for (const { plugin, settings } of allBackends ? all : [current])
    for (const m of plugin.models?.(settings, sharedAccess(config)) ?? [])
      add(m.variable, m.model, m.server, m.addressVariable);
  return watched;
}

function attempt<T>(access: () => T): T | undefined {
  try {
    return access();
  } catch {
    return undefined;
  }
}

/** The lifecycle watch of the configured models (one per process: the model lists are cached in it). */
export function modelLifecycle(
  config: Config,
  options: { allBackends?: boolean; fetch?: typeof fetch; logger?: Logger } = {},
): ModelLifecycle {
  return new ModelLifecycle(watchedModels(config, options), {
    fetch: options.fetch,
    apis: new ModelApis(config.openai.api, options.logger),
  });
}

/** The research models' adapter on OPENAI_BASE_URL, choosing its API with the lifecycle's `ModelApis` when given. */
function researchLlm(
  config: Config,
  logger: Logger,
  { unreachableIsFatal = false, models }: { unreachableIsFatal?: boolean; models?: ModelLifecycle },
): OpenAiLlm {
  const access = requireModelAccess(config);
  return new OpenAiLlm({
    ...access,
    maxRetries: config.openai.maxRetries,
    firstTokenMs: config.openai.firstTokenMs,
    stallMs: config.openai.stallMs,
    logger,
    countTokens,
    unreachableIsFatal,
    apis: models?.apis ?? new ModelApis(config.openai.api, logger),
    ...(models ? { refusedModel: (model, cause) => models.refused(model, access, cause) } : {}),
  });
}

/**
 * What `deep-research doctor` sends each research model: one small turn with a
 * tool, on the API MODEL_API chooses, to learn (and show) which API serves it.
 */
export function apiProbe(config: Config, models: ModelLifecycle, logger: Logger) {
  let llm: OpenAiLlm | undefined;
  // One turn per model, however many roles name it.
  const probes = new Map<string, Promise<unknown>>();
  return (w: { model: string }) => {
    llm ??= researchLlm(config, logger, { unreachableIsFatal: true, models });
    const probe = probes.get(w.model) ?? llm.apiFor(modelSpec(config, w.model));
    probes.set(w.model, probe);
    return probe;
  };
}

/**
 * What research needs, checked before a session is recorded: every setting,
 * then the model server once (it must answer), whose list of models is
 * checked against the settings (each problem a warning line).
 */
export async function researchReady(config: Config, logger: Logger): Promise<void> {
  requireResearchSettings(config);
  const models = modelLifecycle(config);
  await models.catalog(requireModelAccess(config));
  await models.announce(logger);
}
