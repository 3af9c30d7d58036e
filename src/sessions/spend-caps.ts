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

/** A channel's daily budget (its policy's), and who can raise it (as a refusal names them). */
export interface ChannelBudget {
  channelId: string;
  dailyUsd: number;
  raisedBy: string;
}

export interface SpendLeft {
  user?: CapState;
  workspace?: CapState;
  /** The channel's, under its policy's daily budget. */
  channel?: CapState & { raisedBy: string };
  /** What a run may still spend today: the smaller of what either cap leaves; unset without caps. */
  limitUsd?: number;
}

/**
 * What the requester, their workspace and (with a budget) the channel have
 * left today under the caps (`except`: a run's own session).
 */
export async function spendLeft(
  store: SpendStore,
  caps: SpendCaps,
  who: { requester: string; teamId: string | null },
  except?: string,
  budget?: ChannelBudget,
): Promise<SpendLeft> {
  const state = async (cap: number | undefined, scope: SpendScope): Promise<CapState | undefined> => {
    if (cap === undefined) return undefined;
    const spend = await store.since(scope, 'day', except);
    return { cap, spent: spend.costUsd, reserved: spend.reservedUsd };
  };
  const user = await state(caps.userDailyUsd, { requester: who.requester, teamId: who.teamId });
  const workspace = await state(caps.workspaceDailyUsd, { teamId: who.teamId });
  const inChannel = await state(budget?.dailyUsd, { teamId: who.teamId, channelId: budget?.channelId });
  const channel = inChannel && { ...inChannel, raisedBy: budget!.raisedBy };
  const lefts = [user, workspace, channel].flatMap((c) =>
    c ? [Math.max(0, c.cap - c.spent - c.reserved)] : [],
  );
  return { user, workspace, channel, limitUsd: lefts.length ? Math.min(...lefts) : undefined };
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
  for (const [who, state, raise] of [
    ['You have', left.user, 'ask an admin to raise USER_DAILY_BUDGET_USD'],
    ['This workspace has', left.workspace, 'ask an admin to raise WORKSPACE_DAILY_BUDGET_USD'],
    ['Research in this channel has', left.channel, `ask ${left.channel?.raisedBy} to raise it`],
  ] as const) {
    const left = state ? state.cap - state.spent - state.reserved : 0;
    if (!state || (left > needed && left > 0)) continue;
    const used =
      state.reserved > 0
        ? `${usd(state.spent)} (and research still running holds ${usd(state.reserved)})`
        : usd(state.spent);
    const cost = lowestCost === null ? '' : `, and ${what} costs at least about ${usd(needed)}`;
    const of =
      who === 'Research in this channel has'
        ? `${usd(state.cap)} a day this channel's research policy allows`
        : `${usd(state.cap)} research budget for today`;
    return `${who} used ${used} of the ${of}${cost}; try again tomorrow (UTC), or ${raise}.`;
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
