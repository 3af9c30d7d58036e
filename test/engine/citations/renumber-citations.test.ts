import { describe, expect, it } from 'vitest';
import { renumberCitations } from '../../../src/engine/citations/renumber-citations.js';

const known =
  (...ns: number[]) =>
  (n: number) =>
    ns.includes(n);

describe('renumberCitations', () => {
  it('leaves empty text and text without citations unchanged', () => {
    expect(renumberCitations('', known())).toEqual({ text: '', order: [] });
    expect(renumberCitations('No citations here.', known(1))).toEqual({
      text: 'No citations here.',
      order: [],
    });
  });

  it('renumbers in order of first citation', () => {
    expect(renumberCitations('See [50] and [60].', known(50, 60))).toEqual({
      text: 'See [1] and [2].',
      order: [50, 60],
    });
    expect(renumberCitations('[300] [100] [200]', known(100, 200, 300)).text).toBe('[1] [2] [3]');
    expect(renumberCitations('Refs: [30], [31], [32]. Again [31].', known(30, 31, 32)).text).toBe(
      'Refs: [1], [2], [3]. Again [2].',
    );
  });

  it("gives an earlier version's sources their numbers first, cited again or not; unknown ones are skipped", () => {
    expect(renumberCitations('New [70], old [60].', known(50, 60, 70), [50, 99, 60])).toEqual({
      text: 'New [3], old [2].',
      order: [50, 60, 70],
    });
  });

  it('reuses the number of a source cited twice', () => {
    expect(renumberCitations('[25] says X. Also [25] says Y.', known(25)).text).toBe(
      '[1] says X. Also [1] says Y.',
    );
  });

  it('handles lists, double brackets and full-width brackets, writing them as [n]', () => {
    expect(renumberCitations('See [10, 20].', known(10, 20)).text).toBe('See [1, 2].');
    expect(renumberCitations('See [10,20] and [20,  10].', known(10, 20)).text).toBe(
      'See [1, 2] and [2, 1].',
    );
    expect(renumberCitations('See [[25]] for info.', known(25)).text).toBe('See [1] for info.');
    expect(renumberCitations('A【25】 B［7］ C【【25】】', known(7, 25)).text).toBe('A[1] B[2] C[1]');
    expect(renumberCitations('[50][60]', known(50, 60)).text).toBe('[1][2]');
  });

  it('removes citations to unknown numbers without leaving stray spaces', () => {
    expect(renumberCitations('Fact [25] and [99].', known(25))).toEqual({
      text: 'Fact [1] and.',
      order: [25],
    });
    expect(renumberCitations('Claim [99]. Next', known()).text).toBe('Claim. Next');
    expect(renumberCitations('Mixed [99, 4] list', known(4)).text).toBe('Mixed [1] list');
    expect(renumberCitations('(see [9])', known()).text).toBe('(see)');
  });

  it('keeps surrounding text, blank lines and citations at the edges', () => {
    const text = '[5] starts.\n\nMiddle [6] part.\n\nEnds [5]';
    expect(renumberCitations(text, known(5, 6)).text).toBe('[1] starts.\n\nMiddle [2] part.\n\nEnds [1]');
  });

  it('leaves fenced and inline code untouched', () => {
    const text =
      'Fact [7].\n\n```python\nx = a[3]\ny = [1, 2]\n```\n\nInline `arr[2]` and [8].\n~~~\n[7]\n~~~\n';
    const result = renumberCitations(text, known(1, 2, 3, 7, 8));
    expect(result.text).toBe(
      'Fact [1].\n\n```python\nx = a[3]\ny = [1, 2]\n```\n\nInline `arr[2]` and [2].\n~~~\n[7]\n~~~\n',
    );
    expect(result.order).toEqual([7, 8]);
  });

  it('passes non-citations through', () => {
    const text = '[abc] [-1] [ 3 ] [] [1 2] a [link](http://x) [2]: ref';
    expect(renumberCitations(text, known(1, 2, 3)).text).toBe(
      '[abc] [-1] [ 3 ] [] [1 2] a [link](http://x) [1]: ref',
    );
  });

  it('treats over-long numbers as text', () => {
    expect(renumberCitations('[1234567890123456789]', known(1)).text).toBe('[1234567890123456789]');
  });

  it('copies hostile input unchanged (its parse time is measured in bench/markdown.ts)', () => {
    const digits = `[${'1'.repeat(10_000)}`;
    const brackets = '[['.repeat(50_000);
    const commas = `[${'1, '.repeat(50_000)}`;
    const ticks = '`` '.repeat(50_000);
    for (const text of [digits, brackets, commas, ticks]) {
      expect(renumberCitations(text, known(1)).text).toBe(text);
    }
  });

  // Code as CommonMark reads it: `[n]` inside is never touched, every citation outside is renumbered.
  it.each([
    ['a fence on a list-item line', 'A [7].\n\n- ```python\n  x = arr[2]\n  ```\n- B [9] and [7].'],
    ['a fence in a blockquote', 'A [7].\n\n> ```\n> x = arr[2]\n> ```\n\nB [9] and [7].'],
    ['indented code', 'A [7].\n\n    x = arr[2]\n    y = [9]\n\nB [9] and [7].'],
    ['a ~~~ block holding a line of backticks', 'A [7].\n\n~~~\n```\nx = arr[2]\n~~~\n\nB [9] and [7].'],
    ['an inline code span', 'A [7], `x = arr[2]`, B [9] and [7].'],
  ])('leaves %s alone and renumbers around it', (_, text) => {
    const result = renumberCitations(text, known(2, 7, 9));
    expect(result.order).toEqual([7, 9]);
    expect(result.text).toContain('arr[2]');
    expect(result.text.startsWith('A [1]')).toBe(true);
    expect(result.text).toMatch(/B \[2\] and \[1\]\.$/);
  });
});
