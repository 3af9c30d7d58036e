import { z } from 'zod';
import { ResponsesApi } from '../../llm/responses-api.js';
import type { DeepResearchApi } from '../../ports/deep-research-api.js';
import { optionalText, optionalUrl, positiveInt, positiveNumber } from '../../ports/env-values.js';
import { ConfigError } from '../../ports/errors.js';
import { type BackendDeps, backendPlugin, type SharedAccess } from '../backend-plugin.js';
import { deepResearchBackend } from './deep-research-backend.js';
import { taskGraphCost } from './estimate-tasks.js';
import type { DeepResearchSettings } from './run-task.js';

export interface ResponsesApiSettings extends DeepResearchSettings {
  baseURL?: string;
  apiKey?: string;
}

/**
 * The task graph on OpenAI's Responses API: a question planned as tasks,
 * each researched in the background by a reasoning model with OpenAI's web
 * search (gpt-5.5 at high effort), the report written from their answers.
 */
export const deepResearchApi = backendPlugin({
  name: 'deep-research-api',
  summary: "tasks on OpenAI's Responses API with web search",
  env: {
    DEEP_RESEARCH_MODEL: z.string().trim().min(1).default('gpt-5.5'),
    DEEP_RESEARCH_EFFORT: z.enum(['none', 'low', 'medium', 'high', 'xhigh']).default('high'),
    // Where the Responses API is (OpenAI unless set) and its key (OPENAI_API_KEY unless set).
    DEEP_RESEARCH_BASE_URL: optionalUrl,
    DEEP_RESEARCH_API_KEY: optionalText,
    MAX_TASKS: z.coerce.number().int().min(2).max(6).default(6),
    DEEP_RESEARCH_TASK_MINUTES: positiveNumber.default(30),
    DEEP_RESEARCH_POLL_SECONDS: positiveNumber.default(5),
    // Caps the hosted model's searches and page reads per task (cost); unset: the model decides.
    DEEP_RESEARCH_MAX_TOOL_CALLS: positiveInt.optional(),
  },
  hints: {
    DEEP_RESEARCH_BASE_URL: 'set it to the base URL of the Responses API, e.g. https://api.openai.com/v1',
    MAX_TASKS: 'set it to a whole number from 2 to 6',
    DEEP_RESEARCH_EFFORT: 'set it to none, low, medium, high or xhigh',
  },
  read: (e): ResponsesApiSettings => ({
    model: e.DEEP_RESEARCH_MODEL,
    effort: e.DEEP_RESEARCH_EFFORT,
    baseURL: e.DEEP_RESEARCH_BASE_URL,
    apiKey: e.DEEP_RESEARCH_API_KEY,
    maxTasks: e.MAX_TASKS,
    taskTimeMs: e.DEEP_RESEARCH_TASK_MINUTES * 60_000,
    pollMs: e.DEEP_RESEARCH_POLL_SECONDS * 1000,
    maxToolCalls: e.DEEP_RESEARCH_MAX_TOOL_CALLS,
  }),
  // Hosted tasks take minutes each.
  timeBudgetMinutes: 60,
  searchesItself: true,
  // OpenAI's price for its web search tool with reasoning models.
  searchPricePer1k: 10,
  missing: (settings, shared) => (access(settings, shared) ? undefined : NO_KEY),
  models: (settings, shared) => {
    const server = access(settings, shared);
    return server
      ? [
          {
            variable: 'DEEP_RESEARCH_MODEL',
            model: settings.model,
            server,
            addressVariable: 'DEEP_RESEARCH_BASE_URL',
          },
        ]
      : [];
  },
  costWithoutHistory: (settings) => taskGraphCost(settings.model, settings.maxTasks),
  build: (deps, settings) =>
    deepResearchBackend(deps.engine, deps.settings, responsesApi(deps, settings), settings),
});

const NO_KEY =
  'The deep-research backend needs an OpenAI API key: set DEEP_RESEARCH_API_KEY (or OPENAI_API_KEY).';

function access(
  settings: ResponsesApiSettings,
  shared: SharedAccess,
): { apiKey: string; baseURL?: string } | null {
  const apiKey = settings.apiKey ?? shared.apiKey;
  return apiKey ? { apiKey, baseURL: settings.baseURL } : null;
}

/** The Responses API client, made on first use (a process that never runs a hosted task needs no key for it). */
function responsesApi(deps: BackendDeps, settings: ResponsesApiSettings): DeepResearchApi {
  let api: ResponsesApi | undefined;
  const client = () => {
    if (!api) {
      const server = access(settings, deps.shared);
      if (!server) throw new ConfigError('missing_env', NO_KEY);
      api = new ResponsesApi({
        ...server,
        maxRetries: deps.shared.maxRetries,
        timeoutMs: 60_000,
        logger: deps.logger,
        refusedModel: (model, cause) => deps.models.refused(model, server, cause),
        endings: deps.endings,
      });
    }
    return api;
  };
  return {
    create: (request, signal) => client().create(request, signal),
    retrieve: (id, signal) => client().retrieve(id, signal),
    cancel: (id) => client().cancel(id),
    wait: (id, ms, signal) => client().wait(id, ms, signal),
    notifies: Boolean(deps.endings),
  };
}
