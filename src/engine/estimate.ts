import { formatDuration } from '../ports/progress.js';
import { addModelUsage, emptyUsage, estimateCost, spendCost, type Usage } from '../ports/usage.js';
import type { EngineSettings } from './settings.js';

/** A finished run of the past: how long it took, what it cost (null without prices) and what it counted against the caps. */
export interface PastRun {
  durationMs: number;
  costUsd: number | null;
  spendUsd?: number | null;
}

export interface Estimate {
  durationMs: [number, number];
  /** At the price table; null when a model has no price ("cost n/a"). */
  costUsd: [number, number] | null;
  /** What the caps reserve: like `costUsd`, a model without a price costing as the dearest one. */
  spendUsd: [number, number] | null;
  /** From earlier runs here, or only from the settings (no history yet). */
  basis: 'history' | 'settings';
}

/** What a run of the settings costs (low, high) by one way of pricing its usage. */
export type CostFromSettings = (
  settings: EngineSettings,
  price: (usage: Usage) => number | null,
) => [number, number] | null;

/** Earlier runs needed before they, not the settings, make the estimate. */
export const HISTORY_NEEDED = 5;
/**
 * Without history: a run spends this share of its token budget (low, high);
 * a full session of the cache bench spends 65 % (bench/RESULTS.md, "cache").
 */
const TOKEN_SHARE: [number, number] = [0.1, 0.65];
/** Of those tokens, the output (text, calls and hidden reasoning). */
const OUTPUT_SHARE = 0.1;
/** How a session's tokens split between the roles' models (the agents read the pages), as the bench measures. */
const ROLE_SHARE = [
  { role: 'orchestrator', purpose: 'orchestrator', share: 0.02 },
  { role: 'agent', purpose: 'agent', share: 0.95 },
  { role: 'report', purpose: 'final_report', share: 0.03 },
] as const;
/** Of the input, what a provider's prompt cache serves (0.88 in the bench; a little less for a first session). */
const CACHED_SHARE = 0.85;

/**
 * A pre-flight estimate for a research run: the middle half (25th to 75th
 * percentile) of the duration and cost of earlier finished runs when there
 * are enough of them; otherwise from the settings: a few minutes up to the
 * time budget, and a share of the token budget at the models' prices.
 */
export function estimateRun(
  settings: EngineSettings,
  past: PastRun[],
  /** What a run costs when there is no history yet (low, high), or null without prices. */
  fromSettings: CostFromSettings = agentCost,
): Estimate {
  if (past.length >= HISTORY_NEEDED) {
    const known = (costs: (number | null | undefined)[]) => {
      const priced = costs.filter((c): c is number => typeof c === 'number');
      return priced.length >= HISTORY_NEEDED ? middleHalf(priced) : null;
    };
    return {
      durationMs: middleHalf(past.map((r) => r.durationMs)),
      costUsd: known(past.map((r) => r.costUsd)),
      spendUsd: known(past.map((r) => r.spendUsd ?? r.costUsd)),
      basis: 'history',
    };
  }
  const budget = settings.timeBudgetMs;
  return {
    durationMs: [Math.min(budget, 3 * 60_000), budget],
    costUsd: fromSettings(settings, (usage) => estimateCost(usage, settings.prices)),
    spendUsd: fromSettings(settings, (usage) => spendCost(usage, settings.prices)),
    basis: 'settings',
  };
}

/**
 * The agents' cost without history: a share of the token budget, split
 * between the roles' models as a session spends it, its input mostly served
 * from the prompt cache.
 */
function agentCost(
  settings: EngineSettings,
  price: (usage: Usage) => number | null,
): [number, number] | null {
  const cost = (share: number) => {
    const usage = emptyUsage();
    for (const { role, purpose, share: part } of ROLE_SHARE) {
      const tokens = settings.tokenBudget * share * part;
      const inputTokens = tokens * (1 - OUTPUT_SHARE);
      addModelUsage(usage, purpose, settings.models[role].name, {
        inputTokens,
        cachedInputTokens: inputTokens * CACHED_SHARE,
        outputTokens: tokens * OUTPUT_SHARE,
      });
    }
    return price(usage);
  };
  const low = cost(TOKEN_SHARE[0]);
  const high = cost(TOKEN_SHARE[1]);
  return low === null || high === null ? null : [low, high];
}

/** "4m 10s–9m 30s · $0.20–$0.80" ("cost n/a" without prices). */
export function estimateText(estimate: Estimate): string {
  const [shortest, longest] = estimate.durationMs.map((ms) =>
    formatDuration(Math.round(ms / 10_000) * 10_000),
  );
  const cost = estimate.costUsd
    ? `$${estimate.costUsd[0].toFixed(2)}–$${estimate.costUsd[1].toFixed(2)}`
    : 'cost n/a';
  const basis = estimate.basis === 'history' ? 'from earlier runs' : 'rough, from the settings';
  return `${shortest}–${longest} · ${cost} (${basis})`;
}

function middleHalf(values: number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
  return [at(0.25), at(0.75)];
}
