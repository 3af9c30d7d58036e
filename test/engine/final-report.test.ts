import { describe, expect, it } from 'vitest';
import { packFindings } from '../../src/engine/phases/final-report.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('packFindings', () => {
  const findings = [
    { agentId: '1.1', task: 'Costs', report: 'one two three [1].\n\nfour five six [2].' },
    { agentId: '1.2', task: 'Grants', report: 'seven eight [3].' },
  ];

  it('keeps everything in one group when it fits', () => {
    expect(packFindings(findings, words, 1000)).toEqual([
      '### Costs\n\none two three [1].\n\nfour five six [2].\n\n### Grants\n\nseven eight [3].',
    ]);
  });

  it('groups whole findings under the budget', () => {
    expect(packFindings(findings, words, 12)).toEqual([
      '### Costs\n\none two three [1].\n\nfour five six [2].',
      '### Grants\n\nseven eight [3].',
    ]);
  });

  it('splits a finding too large on its own at paragraphs, keeping its heading and every word', () => {
    const groups = packFindings(findings, words, 7);
    expect(groups).toEqual([
      '### Costs (continued)\n\none two three [1].',
      '### Costs (continued)\n\nfour five six [2].',
      '### Grants\n\nseven eight [3].',
    ]);
  });
});
