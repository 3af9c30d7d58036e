import { z } from 'zod';
import { engineBackend } from '../../engine/engine-backend.js';
import type { CostFromSettings } from '../../engine/estimate.js';
import { continueResearch } from '../../engine/run-session.js';
import { optionalText, optionalUrl, positiveNumber } from '../../ports/env-values.js';
import { ConfigError } from '../../ports/errors.js';
import { addModelUsage, emptyUsage } from '../../ports/usage.js';
import { backendPlugin } from '../backend-plugin.js';
import { type GeminiSettings, type GeminiState, geminiMethod } from './gemini-research.js';
import { InteractionsApi } from './interactions-api.js';

const AGENTS = ['deep-research-preview-04-2026', 'deep-research-max-preview-04-2026'];
const NO_KEY =
  'The Gemini Deep Research backend needs a Gemini API key: set GEMINI_API_KEY (create one in Google AI Studio).';
// Google bills the agents at Gemini 3.1 Pro's rates (prompts under 200k tokens) and grounding searches per 1,000.
const PRICE = { input: 2, cachedInput: 0.2, output: 12 };

/**
 * Google's Gemini Deep Research agents (April 2026) on the Interactions API:
 * the agent plans (the requester approves or edits its plan), researches with
 * Google Search in the background and writes its own cited report; the
 * report's links are followed to the real pages, which the claim check reads.
 */
export const geminiDeepResearch = backendPlugin({
  name: 'gemini-deep-research',
  summary: "Google's Gemini Deep Research agent",
  env: {
    GEMINI_API_KEY: optionalText,
    GEMINI_BASE_URL: optionalUrl,
    // deep-research-preview-04-2026 (fast) or deep-research-max-preview-04-2026 (most thorough, slower).
    GEMINI_AGENT: z.string().trim().min(1).default(AGENTS[0]!),
    GEMINI_POLL_SECONDS: positiveNumber.default(5),
  },
  hints: {
    GEMINI_BASE_URL:
      'set it to the Gemini API address, e.g. https://generativelanguage.googleapis.com, or unset it',
    GEMINI_AGENT: `set it to ${AGENTS.join(' or ')}`,
  },
  read: (e): GeminiSettings => ({
    apiKey: e.GEMINI_API_KEY,
    baseURL: e.GEMINI_BASE_URL ?? 'https://generativelanguage.googleapis.com',
    agent: e.GEMINI_AGENT,
    pollMs: e.GEMINI_POLL_SECONDS * 1000,
  }),
  // One research runs up to an hour on Google's side.
  timeBudgetMinutes: 60,
  searchesItself: true,
  searchPricePer1k: 14,
  prices: Object.fromEntries(AGENTS.map((a) => [a, PRICE])),
  missing: (settings) => (settings.apiKey ? undefined : NO_KEY),
  costWithoutHistory: (settings) => agentCost(settings.agent),
  build: (deps, settings) => {
    let api: InteractionsApi | undefined;
    const client = () => {
      if (!settings.apiKey) throw new ConfigError('missing_env', NO_KEY);
      api ??= new InteractionsApi({
        baseURL: settings.baseURL,
        apiKey: settings.apiKey,
        maxRetries: deps.shared.maxRetries,
        logger: deps.logger,
      });
      return api;
    };
    return engineBackend(
      'gemini-deep-research',
      geminiMethod(client, settings),
      deps.engine,
      deps.settings,
      // [Research more] continues the finished research's conversation with the agent.
      (finished, sessionId, report) => {
        const done = (finished.backendState ?? {}) as GeminiState;
        const state: GeminiState = { previousInteraction: done.research?.id ?? done.previousInteraction };
        return { ...continueResearch(finished, sessionId, report), backendState: state };
      },
    );
  },
});

/**
 * Without history: one research of about 250k–1.5M input and 15k–60k output
 * tokens (thinking included) with 20–80 searches, what deep-research runs are
 * reported to use, at the agent's and Google Search's prices.
 */
function agentCost(agent: string): CostFromSettings {
  return (_settings, price) => {
    const cost = (input: number, output: number, searches: number) => {
      const usage = emptyUsage();
      addModelUsage(usage, 'deep_research', agent, { inputTokens: input, outputTokens: output });
      usage.hostedSearches = searches;
      return price(usage);
    };
    const low = cost(250_000, 15_000, 20);
    const high = cost(1_500_000, 60_000, 80);
    return low === null || high === null ? null : [low, high];
  };
}
