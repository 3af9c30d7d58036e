import { formatDuration } from './progress.js';
import type { EngineSettings } from './settings.js';
import { addModelUsage, emptyUsage, estimateCost } from './usage.js';

/** A finished run of the past: how long it took and what it cost (null without prices). */
export interface PastRun {
  durationMs: number;
  costUsd: number | null;
}

export interface Estimate {
  durationMs: [number, number];
  costUsd: [number, number] | null;
  /** From earlier runs here, or only from the settings (no history yet). */
  basis: 'history' | 'settings';
}

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
  fromSettings: (settings: EngineSettings) => [number, number] | null = agentCost,
): Estimate {
  if (past.length >= HISTORY_NEEDED) {
    const costs = past.map((r) => r.costUsd).filter((c): c is number => c !== null);
    return {
      durationMs: middleHalf(past.map((r) => r.durationMs)),
      costUsd: costs.length >= HISTORY_NEEDED ? middleHalf(costs) : null,
      basis: 'history',
    };
  }
  const budget = settings.timeBudgetMs;
  return {
    durationMs: [Math.min(budget, 3 * 60_000), budget],
    costUsd: fromSettings(settings),
    basis: 'settings',
  };
}

/** The agents' cost without history: a share of the token budget at the orchestrator model's prices. */
function agentCost(settings: EngineSettings): [number, number] | null {
  const cost = (share: number) => {
    const tokens = settings.tokenBudget * share;
    const usage = emptyUsage();
    addModelUsage(usage, 'orchestrator', settings.models.orchestrator.name, {
      inputTokens: tokens * (1 - OUTPUT_SHARE),
      outputTokens: tokens * OUTPUT_SHARE,
    });
    return estimateCost(usage, settings.prices);
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
