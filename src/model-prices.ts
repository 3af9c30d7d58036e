import { z } from 'zod';
import type { ModelPrice } from './engine/usage.js';

/** USD per million tokens, for the cost estimate in the report footer; MODEL_PRICES adds or overrides entries. */
export const DEFAULT_MODEL_PRICES: Record<string, ModelPrice> = {
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // The hosted deep-research models (RESEARCH_BACKEND=deep-research-api); named whole so the o4-mini and o3
  // prefixes above do not price them.
  'o4-mini-deep-research': { input: 2, cachedInput: 0.5, output: 8 },
  'o3-deep-research': { input: 10, cachedInput: 2.5, output: 40 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
};

/** The shape MODEL_PRICES must have. */
export const ModelPrices = z.record(
  z.string(),
  z.object({
    input: z.number().min(0),
    output: z.number().min(0),
    cachedInput: z.number().min(0).optional(),
  }),
);
