import { describe, expect, it } from 'vitest';
import { DIFFERENT, SAME } from '../../bench/question-pairs.js';
import { sameQuestion } from '../../src/sessions/question-match.js';

describe('whether a question repeats an earlier one', () => {
  it('recognises every hand-written paraphrase', () => {
    for (const [a, b] of SAME) expect(sameQuestion(a, b), `${a} ~ ${b}`).toBe(true);
  });

  it('tells apart questions one figure, place or label apart', () => {
    for (const [a, b] of [
      [
        'What is the market share of EV batteries in Europe in 2025?',
        'What is the market share of EV batteries in Europe in 2030?',
      ],
      [
        'How did remote work change office rents in Leeds?',
        'How did remote work change office rents in York?',
      ],
      ['What limits kelp farming in region A?', 'What limits kelp storage in region B?'],
      ['How many people use 5G in the UK?', 'How many people use 4G in the UK?'],
    ])
      expect(sameQuestion(a!, b!), `${a} ~ ${b}`).toBe(false);
    // A name at the start of one and inside the other is the same name.
    expect(
      sameQuestion(
        'Kubernetes autoscaling best practices',
        'What are the best practices for Kubernetes autoscaling?',
      ),
    ).toBe(true);
    // Of the different pairs, only the two a contrasting common word separates are still taken for the same.
    expect(DIFFERENT.filter(([a, b]) => sameQuestion(a, b)).map(([a]) => a)).toEqual([
      'Which countries have the highest solar power capacity?',
      'How do heat pumps perform in cold climates?',
    ]);
  });
});
