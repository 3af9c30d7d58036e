import { z } from 'zod';
import { BACKEND_PRICES } from '../backends/backend-list.js';
import type { BackendPlugin } from '../backends/backend-plugin.js';
import { DEFAULT_MODEL_PRICES, HOSTED_SEARCH_PRICE_PER_1K, ModelPrices } from '../model-prices.js';
import { type EnvOf, optionalText, optionalUrl, positiveNumber } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

/**
 * OpenAI's reasoning guide starts research with gpt-5.5, and no shutdown of it
 * is announced (deprecations page and GET /v1/models, checked 2026-11-29).
 */
export const DEFAULT_RESEARCH_MODEL = 'gpt-5.5';

/** The model server, the research models and what they cost. */
export const MODEL_FIELDS = {
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  // OpenAI's webhook signing secret (whsec_…): hosted tasks wake on response.* webhooks at /openai/webhooks.
  OPENAI_WEBHOOK_SECRET: optionalText,
  RESEARCH_MODEL: z.string().trim().min(1).default(DEFAULT_RESEARCH_MODEL),
  ORCHESTRATOR_MODEL: optionalText,
  AGENT_MODEL: optionalText,
  REPORT_MODEL: optionalText,
  MODEL_REASONING: z.enum(['auto', 'true', 'false']).default('auto'),
  REASONING_EFFORT: z.enum(['low', 'medium', 'high']).default('medium'),
  LLM_TIMEOUT_SECONDS: positiveNumber.default(300),
  LLM_FIRST_TOKEN_SECONDS: positiveNumber.default(60),
  LLM_STALL_SECONDS: positiveNumber.default(30),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  // Which API the research models are called on: auto finds out per server and model (Responses API first).
  MODEL_API: z.enum(['auto', 'responses', 'chat-completions']).default('auto'),
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
  // USD per 1,000 searches a hosted backend makes; unset: the price its provider lists (OpenAI $10, Google $14).
  HOSTED_SEARCH_PRICE_PER_1K: z.coerce.number().min(0).optional(),
};

export function readModels(
  e: EnvOf<typeof MODEL_FIELDS>,
  backend: Pick<BackendPlugin, 'searchPricePer1k'>,
): Pick<Config, 'openai' | 'models' | 'prices'> {
  return {
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseURL: e.OPENAI_BASE_URL,
      webhookSecret: e.OPENAI_WEBHOOK_SECRET,
      maxRetries: e.LLM_MAX_RETRIES,
      timeoutMs: e.LLM_TIMEOUT_SECONDS * 1000,
      firstTokenMs: e.LLM_FIRST_TOKEN_SECONDS * 1000,
      stallMs: e.LLM_STALL_SECONDS * 1000,
      api: e.MODEL_API,
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
  };
}
