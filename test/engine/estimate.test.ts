import { describe, expect, it } from 'vitest';
import { estimateRun, estimateText } from '../../src/engine/estimate.js';
import { testSettings } from '../helpers/engine-harness.js';

const minutes = (m: number) => m * 60_000;

describe('estimateRun', () => {
  it('takes the middle half of earlier runs once there are enough of them', () => {
    const past = [4, 5, 6, 7, 8, 9, 30].map((m, i) => ({
      durationMs: minutes(m),
      costUsd: i === 6 ? null : m / 10,
    }));
    const estimate = estimateRun(testSettings(), past);
    expect(estimate).toEqual({
      durationMs: [minutes(5), minutes(8)],
      costUsd: [0.5, 0.7],
      spendUsd: [0.5, 0.7],
      basis: 'history',
    });
    expect(estimateText(estimate)).toBe('5m 00s–8m 00s · $0.50–$0.70 (from earlier runs)');
  });

  it('falls back to the settings, and says "cost n/a" when the model has no price', () => {
    const past = [{ durationMs: minutes(4), costUsd: 0.4 }];
    const unpriced = estimateRun(
      testSettings({ timeBudgetMs: minutes(20), prices: { models: {}, searchPer1k: 0 } }),
      past,
    );
    expect(unpriced.basis).toBe('settings');
    expect(unpriced.durationMs).toEqual([minutes(3), minutes(20)]);
    expect(estimateText(unpriced)).toBe('3m 00s–20m 00s · cost n/a (rough, from the settings)');
  });

  it('reserves for the caps as if a model without a price cost as the dearest priced one, never as free', () => {
    const settings = testSettings({
      tokenBudget: 1_000_000,
      prices: {
        models: { cheap: { input: 1, output: 2 }, dear: { input: 30, output: 180 } },
        searchPer1k: 0,
      },
    });
    const unpriced = estimateRun(settings, []);
    expect(unpriced.costUsd).toBeNull();
    // 10% and 65% of a million tokens, nine tenths input at $30/M (the dearest has no cached price) and a tenth output at $180/M.
    expect(unpriced.spendUsd![0]).toBeCloseTo((100_000 * (0.9 * 30 + 0.1 * 180)) / 1e6, 6);
    expect(unpriced.spendUsd![1]).toBeCloseTo((650_000 * (0.9 * 30 + 0.1 * 180)) / 1e6, 6);
    // Past runs count what they were charged against the caps, even when their shown cost is unknown.
    const past = [1, 2, 3, 4, 5].map((n) => ({ durationMs: minutes(n), costUsd: null, spendUsd: n }));
    expect(estimateRun(settings, past)).toMatchObject({ costUsd: null, spendUsd: [2, 4] });
  });

  it('prices each role with its own model, the input mostly from the prompt cache', () => {
    const spec = (name: string) => ({ name, reasoning: true });
    const prices = {
      models: {
        'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30 },
        'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
      },
      searchPer1k: 0,
    };
    const at = (agent: string) =>
      estimateRun(
        testSettings({
          tokenBudget: 2_000_000,
          prices,
          models: { orchestrator: spec('gpt-5.5'), agent: spec(agent), report: spec('gpt-5.5') },
        }),
        [],
      ).costUsd!;
    // 65% of 2M tokens at gpt-5.5: 1.17M input (85% cached) and 130k output.
    const perToken = (0.9 * (0.15 * 5 + 0.85 * 0.5) + 0.1 * 30) / 1e6;
    expect(at('gpt-5.5')[1]).toBeCloseTo(1_300_000 * perToken, 6);
    // The agents spend 95% of it: a cheaper agent model is most of the saving.
    expect(at('gpt-5.4-mini')[1]).toBeLessThan(at('gpt-5.5')[1] * 0.25);
  });
});
