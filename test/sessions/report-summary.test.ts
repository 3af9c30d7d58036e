import { describe, expect, it } from 'vitest';
import { reportSummary } from '../../src/sessions/report-summary.js';

describe('reportSummary', () => {
  it('takes the opening Summary section, citations and all', () => {
    const report =
      '## Summary\n\n- Prices fell 12% in 2025 [1].\n- Supply recovered [2, 3].\n\n## Background\n\nLong text [4].';
    expect(reportSummary(report)).toEqual({
      heading: 'Summary',
      markdown: '- Prices fell 12% in 2025 [1].\n- Supply recovered [2, 3].',
      cut: false,
    });
  });

  it('keeps the partial-report banner and skips a title of its own', () => {
    const report =
      '> **Partial report**: the time limit was reached.\n\n# Lithium\n\n## Zusammenfassung\n\nKurz [1].\n\n## Details\n\nMehr.';
    const summary = reportSummary(report);
    expect(summary.heading).toBe('Zusammenfassung');
    expect(summary.markdown).toBe('> **Partial report**: the time limit was reached.\n\nKurz [1].');
  });

  it('takes the text before the first heading when the report has no summary section', () => {
    const summary = reportSummary('The answer is 42 [1].\n\nBecause of this [2].\n\n## Why\n\nDetails.');
    expect(summary).toEqual({ markdown: 'The answer is 42 [1].\n\nBecause of this [2].', cut: false });
  });

  it('a summary section that ends the report is the whole section, not cut', () => {
    expect(reportSummary('## Summary\n\nOnly this [1].')).toEqual({
      heading: 'Summary',
      markdown: 'Only this [1].',
      cut: false,
    });
  });

  it('cuts at whole blocks, or at a sentence when one block is too long', () => {
    const bullets = Array.from({ length: 40 }, (_, i) => `Finding number ${i} is important [${i + 1}].`);
    const long = reportSummary(`## Summary\n\n${bullets.join('\n\n')}\n\n## More\n\nx`, 300);
    expect(long.cut).toBe(true);
    expect(long.markdown.length).toBeLessThanOrEqual(300);
    expect(long.markdown.split('\n\n')).toEqual(bullets.slice(0, long.markdown.split('\n\n').length));

    const sentences = Array.from({ length: 50 }, (_, i) => `Sentence ${i} [1].`).join(' ');
    const one = reportSummary(sentences, 200);
    expect(one.cut).toBe(true);
    expect(one.markdown.length).toBeLessThanOrEqual(201);
    expect(one.markdown.endsWith('.…')).toBe(true);
  });
});
