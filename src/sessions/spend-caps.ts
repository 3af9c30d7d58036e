import type { Spend, SpendScope, SpendStore } from './records/spend-store.js';

/** USER_DAILY_BUDGET_USD and WORKSPACE_DAILY_BUDGET_USD; unset: no cap. */
export interface SpendCaps {
  userDailyUsd?: number;
  workspaceDailyUsd?: number;
}

export interface CapState {
  cap: number;
  /** Finished research today. */
  spent: number;
  /** What unfinished research may still spend. */
  reserved: number;
}

export interface SpendLeft {
  user?: CapState;
  workspace?: CapState;
  /** What a run may still spend today: the smaller of what either cap leaves; unset without caps. */
  limitUsd?: number;
}

/** What the requester and their workspace have left today under the caps (`except`: a run's own session). */
export async function spendLeft(
  store: SpendStore,
  caps: SpendCaps,
  who: { requester: string; teamId: string | null },
  except?: string,
): Promise<SpendLeft> {
  const state = async (cap: number | undefined, scope: SpendScope): Promise<CapState | undefined> => {
    if (cap === undefined) return undefined;
    const spend = await store.since(scope, 'day', except);
    return { cap, spent: spend.costUsd, reserved: spend.reservedUsd };
  };
  const user = await state(caps.userDailyUsd, { requester: who.requester, teamId: who.teamId });
  const workspace = await state(caps.workspaceDailyUsd, { teamId: who.teamId });
  const lefts = [user, workspace].flatMap((c) => (c ? [Math.max(0, c.cap - c.spent - c.reserved)] : []));
  return { user, workspace, limitUsd: lefts.length ? Math.min(...lefts) : undefined };
}

/**
 * One sentence when a new research would not fit what is left today
 * (`lowestCost`: the low end of its estimate), with the figures; else undefined.
 */
export function capRefusal(
  left: SpendLeft,
  lowestCost: number | null,
  what = 'a research',
): string | undefined {
  const needed = lowestCost ?? 0;
  for (const [who, state, variable] of [
    ['You have', left.user, 'USER_DAILY_BUDGET_USD'],
    ['This workspace has', left.workspace, 'WORKSPACE_DAILY_BUDGET_USD'],
  ] as const) {
    const left = state ? state.cap - state.spent - state.reserved : 0;
    if (!state || (left > needed && left > 0)) continue;
    const used =
      state.reserved > 0
        ? `${usd(state.spent)} (and research still running holds ${usd(state.reserved)})`
        : usd(state.spent);
    const cost = lowestCost === null ? '' : `, and ${what} costs at least about ${usd(needed)}`;
    return `${who} used ${used} of the ${usd(state.cap)} research budget for today${cost}; try again tomorrow (UTC), or ask an admin to raise ${variable}.`;
  }
  return undefined;
}

export function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}

/**
 * `/research usage` and `deep-research usage`: the requester's and the
 * workspace's finished research today and this month (UTC), with the caps.
 */
export async function usageSummary(
  store: SpendStore,
  caps: SpendCaps,
  who: { requester: string; teamId: string | null },
): Promise<string> {
  const line = async (label: string, scope: SpendScope, cap: number | undefined) => {
    const [day, month] = await Promise.all([store.since(scope, 'day'), store.since(scope, 'month')]);
    const of = cap === undefined ? '' : ` of ${usd(cap)} a day`;
    const held = day.reservedUsd > 0 ? `, ${usd(day.reservedUsd)} held by research still running` : '';
    return `${label}: today ${spendText(day)}${of}${held}; this month ${spendText(month)}.`;
  };
  return [
    await line('Your research', { requester: who.requester, teamId: who.teamId }, caps.userDailyUsd),
    await line('This workspace', { teamId: who.teamId }, caps.workspaceDailyUsd),
  ].join('\n');
}

function spendText(spend: Spend): string {
  const tokens =
    spend.tokens >= 1_000_000
      ? `${(spend.tokens / 1_000_000).toFixed(1)}M`
      : `${Math.round(spend.tokens / 1000)}k`;
  // A session whose model has no price says "cost n/a" in its report: the sums say so rather than $0.00.
  const cost =
    spend.unpriced === 0
      ? usd(spend.costUsd)
      : spend.unpriced === spend.sessions && spend.costUsd === 0
        ? 'cost n/a'
        : `${usd(spend.costUsd)} (cost n/a for ${spend.unpriced} of them)`;
  return `${spend.sessions} ${spend.sessions === 1 ? 'session' : 'sessions'}, ${tokens} tokens, ${cost}`;
}
