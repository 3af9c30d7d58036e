import { describe, expect, it } from 'vitest';
import { splitPassages } from '../../../src/search/knowledge/split-passages.js';

describe('splitPassages', () => {
  it('starts a passage at each heading and remembers the headings above it', () => {
    const text = [
      '# Handbook',
      'Welcome to the team.',
      '## Heating',
      'The office is heated from 7:00.',
      '### Night setback',
      'At night the temperature drops to 16 °C.',
      '## Travel',
      'Book trains where possible.',
    ].join('\n\n');
    expect(splitPassages('Handbook', text)).toEqual([
      { heading: 'Handbook', body: 'Welcome to the team.' },
      { heading: 'Handbook › Heating', body: 'The office is heated from 7:00.' },
      { heading: 'Handbook › Heating › Night setback', body: 'At night the temperature drops to 16 °C.' },
      { heading: 'Handbook › Travel', body: 'Book trains where possible.' },
    ]);
  });

  it('packs whole paragraphs up to the size limit and cuts an over-long paragraph at sentence ends', () => {
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(40).trim()}.`;
    const passages = splitPassages('T', [1, 2, 3, 4, 5].map(paragraph).join('\n\n'), 500);
    expect(passages.map((p) => p.body.split('\n\n').length)).toEqual([2, 2, 1]);
    expect(passages.every((p) => p.body.length <= 500)).toBe(true);

    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const cut = splitPassages('T', long, 200);
    expect(cut.length).toBeGreaterThan(3);
    expect(cut.every((p) => p.body.length <= 200 && /\.$/.test(p.body))).toBe(true);
    expect(cut.map((p) => p.body).join(' ')).toBe(long);
  });

  it('gives nothing for an empty document', () => {
    expect(splitPassages('T', '  \n\n  ')).toEqual([]);
  });
});
