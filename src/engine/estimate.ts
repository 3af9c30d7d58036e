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
/** Without history: a run usually spends this share of its token budget (low, high), read at the report model's prices. */
const TOKEN_SHARE: [number, number] = [0.02, 0.15];
const OUTPUT_SHARE = 0.1;

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

/** The agents' cost without history: a share of the token budget at the orchestrator model's prices. */
function agentCost(
  settings: EngineSettings,
  price: (usage: Usage) => number | null,
): [number, number] | null {
  const cost = (share: number) => {
    const tokens = settings.tokenBudget * share;
    const usage = emptyUsage();
    addModelUsage(usage, 'orchestrator', settings.models.orchestrator.name, {
      inputTokens: tokens * (1 - OUTPUT_SHARE),
      outputTokens: tokens * OUTPUT_SHARE,
    });
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
