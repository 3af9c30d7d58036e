import type { LlmPurpose, TokenUsage } from './llm.js';
import type { Usage } from './research.js';

export type { ModelUsage, Usage } from './research.js';

/** USD per million tokens; `cachedInput` for input served from the provider's prompt cache (else `input`). */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

export function emptyUsage(): Usage {
  return { models: [], webSearches: 0, internalSearches: 0, pagesRead: 0, pagesFailed: 0 };
}

export function addModelUsage(usage: Usage, purpose: LlmPurpose, model: string, tokens: TokenUsage): void {
  let row = usage.models.find((m) => m.purpose === purpose && m.model === model);
  if (!row) {
    row = { purpose, model, calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    usage.models.push(row);
  }
  row.calls += 1;
  row.inputTokens += tokens.inputTokens;
  row.outputTokens += tokens.outputTokens;
  row.cachedInputTokens = (row.cachedInputTokens ?? 0) + (tokens.cachedInputTokens ?? 0);
  if (tokens.reasoningTokens) row.reasoningTokens = (row.reasoningTokens ?? 0) + tokens.reasoningTokens;
}

/** The share of input tokens served from the prompt cache, or null when the server reported none. */
export function cachedShare(usage: Usage): number | null {
  const input = usage.models.reduce((sum, m) => sum + m.inputTokens, 0);
  const cached = usage.models.reduce((sum, m) => sum + (m.cachedInputTokens ?? 0), 0);
  return cached > 0 && input > 0 ? Math.min(1, cached / input) : null;
}

export function totalTokens(usage: Usage): number {
  return usage.models.reduce((sum, m) => sum + m.inputTokens + m.outputTokens, 0);
}

export interface PriceTable {
  models: Record<string, ModelPrice>;
  /** USD per 1,000 web searches. */
  searchPer1k: number;
  /** USD per 1,000 searches a hosted deep-research model makes. */
  hostedSearchPer1k?: number;
}

/** Estimated cost in USD, or null when a model used has no price: an unknown cost is not shown as $0. */
export function estimateCost(usage: Usage, prices: PriceTable): number | null {
  let usd = searchCost(usage, prices);
  for (const m of usage.models) {
    const price = priceFor(m.model, prices.models);
    if (!price) return null;
    usd += tokenCost(m, price);
  }
  return usd;
}

/**
 * What a run counts against the spending caps: its estimated cost, with a
 * model that has no price costing what the dearest priced model would, so an
 * unpriced model is never free under the caps.
 */
export function spendCost(usage: Usage, prices: PriceTable): number {
  const dearest = dearestPrice(prices.models);
  let usd = searchCost(usage, prices);
  for (const m of usage.models) usd += tokenCost(m, priceFor(m.model, prices.models) ?? dearest);
  return usd;
}

function searchCost(usage: Usage, prices: PriceTable): number {
  return (
    (usage.webSearches * prices.searchPer1k + (usage.hostedSearches ?? 0) * (prices.hostedSearchPer1k ?? 0)) /
    1000
  );
}

function tokenCost(m: Usage['models'][number], price: ModelPrice): number {
  const cached = Math.min(m.cachedInputTokens ?? 0, m.inputTokens);
  const fresh = m.inputTokens - cached;
  return (
    (fresh * price.input + cached * (price.cachedInput ?? price.input) + m.outputTokens * price.output) /
    1_000_000
  );
}

/** The highest input, cached input and output prices of the table (each its own maximum). */
function dearestPrice(table: Record<string, ModelPrice>): ModelPrice {
  const prices = Object.values(table);
  const most = (pick: (p: ModelPrice) => number) => Math.max(0, ...prices.map(pick));
  return {
    input: most((p) => p.input),
    cachedInput: most((p) => p.cachedInput ?? p.input),
    output: most((p) => p.output),
  };
}

/** A model's price: its own entry, or its family's for a dated snapshot (`gpt-5.5-2026-04-23`). */
function priceFor(model: string, table: Record<string, ModelPrice>): ModelPrice | undefined {
  const key = priceKey(model, table);
  return key === undefined ? undefined : table[key];
}

/** The table entry that prices a model: its exact name, else the family it is a dated snapshot of. */
export function priceKey(model: string, table: Record<string, ModelPrice>): string | undefined {
  if (table[model]) return model;
  const snapshot = /^(.+)-\d{4}-\d{2}-\d{2}$/.exec(model);
  return snapshot && table[snapshot[1]!] ? snapshot[1] : undefined;
}
