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
    expect(estimate).toEqual({ durationMs: [minutes(5), minutes(8)], costUsd: [0.5, 0.7], basis: 'history' });
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
});
