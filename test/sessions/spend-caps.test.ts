import { describe, expect, it } from 'vitest';
import type { SpendScope, SpendStore } from '../../src/sessions/records/spend-store.js';
import { capRefusal, spendLeft } from '../../src/sessions/spend-caps.js';

/** Spending by scope: the requester's $1.20 of the workspace's $9.00 today. */
const store = {
  since: async (scope: SpendScope) => ({
    sessions: 1,
    tokens: 1000,
    costUsd: scope.requester ? 1.2 : 9,
    reservedUsd: 0,
  }),
} as unknown as SpendStore;
const who = { requester: 'UANN', teamId: 'T1' };

describe('spend caps', () => {
  it('leaves a run the smaller of what the caps leave, and nothing is read without caps', async () => {
    expect(await spendLeft(store, { userDailyUsd: 5, workspaceDailyUsd: 10 }, who)).toEqual({
      user: { cap: 5, spent: 1.2, reserved: 0 },
      workspace: { cap: 10, spent: 9, reserved: 0 },
      limitUsd: 1,
    });
    const none = { since: async () => expect.fail('read without caps') } as unknown as SpendStore;
    expect(await spendLeft(none, {}, who)).toEqual({
      user: undefined,
      workspace: undefined,
      limitUsd: undefined,
    });
  });

  it('refuses a research that would not fit, naming whose cap and the variable', async () => {
    const left = await spendLeft(store, { userDailyUsd: 5, workspaceDailyUsd: 10 }, who);
    expect(capRefusal(left, 0.5)).toBeUndefined();
    expect(capRefusal(left, 1.5)).toBe(
      'This workspace has used $9.00 of the $10.00 research budget for today, and a research costs at least about $1.50; try again tomorrow (UTC), or ask an admin to raise WORKSPACE_DAILY_BUDGET_USD.',
    );
    const spent = await spendLeft(store, { userDailyUsd: 1 }, who);
    expect(capRefusal(spent, null)).toBe(
      'You have used $1.20 of the $1.00 research budget for today; try again tomorrow (UTC), or ask an admin to raise USER_DAILY_BUDGET_USD.',
    );
  });

  it('counts what research still running holds, and says so in the refusal', async () => {
    const running = {
      since: async () => ({ sessions: 1, unpriced: 0, tokens: 1000, costUsd: 1.2, reservedUsd: 3.5 }),
    } as unknown as SpendStore;
    const left = await spendLeft(running, { userDailyUsd: 5 }, who);
    expect(left.limitUsd).toBeCloseTo(0.3);
    expect(capRefusal(left, 0.4)).toBe(
      'You have used $1.20 (and research still running holds $3.50) of the $5.00 research budget for today, and a research costs at least about $0.40; try again tomorrow (UTC), or ask an admin to raise USER_DAILY_BUDGET_USD.',
    );
  });
});
