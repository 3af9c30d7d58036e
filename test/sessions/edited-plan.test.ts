import { describe, expect, it } from 'vitest';
import { checkEditedPlan } from '../../src/sessions/edited-plan.js';

describe('checkEditedPlan', () => {
  it('keeps numbered steps and notes under them, trimmed', () => {
    expect(checkEditedPlan('\r\n1. Costs in Europe  \r\n   only 2024 data\r\n2) Policy\r\n')).toEqual({
      plan: '1. Costs in Europe\n   only 2024 data\n2) Policy',
    });
  });

  it.each([
    ['no steps at all', 'Just research it', 'Write the plan as numbered steps: "1. …", one per line.'],
    [
      'seven steps',
      [1, 2, 3, 4, 5, 6, 7].map((n) => `${n}. x`).join('\n'),
      'A plan has at most 6 steps; this one has 7.',
    ],
    ['an empty step', '1. Costs\n2. ', 'A step is empty.'],
    ['an overlong step', `1. ${'x'.repeat(600)}`, 'Keep each step under 500 characters.'],
    [
      'a plan of 329 KB in notes under its steps',
      `1. Costs\n${'note line\n'.repeat(32_900)}`,
      'The plan is 329,009 characters long; keep it under 3,000.',
    ],
  ])('refuses %s, saying why', (_name, text, error) => {
    expect(checkEditedPlan(text)).toEqual({ error });
  });

  it('drops invisible control characters (a NUL the database could not store) instead of losing the edit', () => {
    expect(checkEditedPlan('1. Costs\u0000 in Europe\n2. Pol\u202eicy')).toEqual({
      plan: '1. Costs in Europe\n2. Policy',
    });
  });
});
