import { z } from 'zod';
import { type ModelPrice, priceKey } from './ports/usage.js';

/**
 * USD per million tokens (standard tier, context under 270k), for the cost in
 * the report footer, the estimates and the spending caps; MODEL_PRICES adds or
 * overrides entries. Taken on 2026-11-27 from OpenAI's pricing page
 * (https://developers.openai.com/api/docs/pricing, as quoted in
 * ../shared/reference/platform-2026.md and by third-party price tables of
 * June–November 2026). Prices change: `deep-research doctor` shows which
 * entry prices each configured model.
 */
export const PRICES_TAKEN = '2026-11-27';

export const DEFAULT_MODEL_PRICES: Record<string, ModelPrice> = {
  // Current models (OpenAI's reasoning guide: start with gpt-5.5; 5.4 and its mini for lower cost).
  'gpt-5.5-pro': { input: 30, output: 180 },
  'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30 },
  'gpt-5.4-pro': { input: 30, output: 180 },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25 },
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
  // Earlier GPT-5 generations, still served (gpt-5, gpt-5-mini and gpt-5-nano until 2026-12-11).
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  // GPT-4.1 and GPT-4o families (shut down 2027-01-14).
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
};

/**
 * USD per 1,000 calls of OpenAI's hosted web search tool (`web_search`) with
 * reasoning models, taken with the table above; the pages it reads are
 * billed as the model's input tokens, which the usage already counts.
 */
export const HOSTED_SEARCH_PRICE_PER_1K = 10;

/** Where a model's price comes from, for `deep-research doctor`. */
export function priceSource(model: string, overrides: Record<string, ModelPrice>): string {
  const own = priceKey(model, overrides);
  if (own) return `MODEL_PRICES (${own})`;
  const builtIn = priceKey(model, DEFAULT_MODEL_PRICES);
  if (builtIn) return `built-in table of ${PRICES_TAKEN} (${builtIn})`;
  return 'none: set MODEL_PRICES';
}

/** The shape MODEL_PRICES must have. */
export const ModelPrices = z.record(
  z.string(),
  z.object({
    input: z.number().min(0),
    output: z.number().min(0),
    cachedInput: z.number().min(0).optional(),
  }),
);
