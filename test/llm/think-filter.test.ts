import { describe, expect, it } from 'vitest';
import { thinkFilter } from '../../src/llm/think-filter.js';

function run(chunks: string[]) {
  const filter = thinkFilter();
  const out = chunks.map((c) => filter.push(c)).join('') + filter.end();
  return { out, seen: filter.seen() };
}

describe('thinkFilter', () => {
  it('passes an answer without a think block through unchanged, even one opening with "<"', () => {
    expect(run(['Heat ', 'pumps'])).toEqual({ out: 'Heat pumps', seen: false });
    expect(run(['<', 'b>bold</b>'])).toEqual({ out: '<b>bold</b>', seen: false });
    expect(run(['<th'])).toEqual({ out: '<th', seen: false });
  });

  it('drops a leading block split anywhere, and the blank lines after it', () => {
    expect(run(['  <think>', 'a</', 'think>', '\n\n', 'Answer'])).toEqual({ out: 'Answer', seen: true });
    expect(run(['<think>x</think>Answer <think>kept</think>'])).toEqual({
      out: 'Answer <think>kept</think>',
      seen: true,
    });
  });

  it('drops an unclosed block (an answer cut off while thinking)', () => {
    expect(run(['<think>still thinking about it'])).toEqual({ out: '', seen: true });
  });
});
