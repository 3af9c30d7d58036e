import { describe, expect, it } from 'vitest';
import { normalizeQueries, queryKey } from '../../../src/engine/tools/normalize-queries.js';
import { textWindow } from '../../../src/engine/tools/text-window.js';
import { interleave } from '../../../src/engine/tools/tool-result.js';
import { parseToolArgs } from '../../../src/engine/tools/tool-specs.js';

const call = (args: string) => ({ id: 'c1', name: 'x', arguments: args });

describe('normalizeQueries', () => {
  it('treats a bare string as one query and cleans control characters', () => {
    expect(normalizeQueries('hello')).toEqual(['hello']);
    expect(normalizeQueries('hello\x00world')).toEqual(['helloworld']);
    expect(normalizeQueries('   ')).toEqual([]);
    expect(normalizeQueries(['  a  ', 'b\tb'])).toEqual(['a', 'bb']);
    expect(normalizeQueries([null, 'x'])).toEqual(['x']);
    expect(normalizeQueries([1, 'two'])).toEqual(['1', 'two']);
    expect(normalizeQueries(42)).toEqual([]);
  });

  it('keys queries case- and space-insensitively', () => {
    expect(queryKey('  Heat  Pumps UK ')).toBe(queryKey('heat pumps uk'));
  });
});

describe('parseToolArgs', () => {
  it('accepts valid arguments and normalises queries', () => {
    expect(parseToolArgs('web_search', call('{"queries":"one query"}'))).toEqual({
      ok: true,
      value: { queries: ['one query'] },
    });
    expect(parseToolArgs('research_agent', call('{"task":"  Find X  "}'))).toEqual({
      ok: true,
      value: { task: 'Find X' },
    });
    expect(parseToolArgs('generate_report', call(''))).toEqual({ ok: true, value: {} });
  });

  it('turns malformed calls into instructions the model can act on', () => {
    const bad = parseToolArgs('research_agent', call('{"task": '));
    expect(bad).toEqual({ ok: false, message: expect.stringContaining('not valid JSON') });
    const missing = parseToolArgs('research_agent', call('{}'));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.message).toMatch(/invalid arguments for research_agent.*"task"/);
    const empty = parseToolArgs('web_search', call('{"queries":["  ",""]}'));
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.message).toContain('give at least one query');
  });
});

describe('textWindow', () => {
  const text = `${'intro '.repeat(1000)}The key finding is that X rose by 40 percent in 2024. ${'tail '.repeat(3000)}`;

  it('returns short text whole', () => {
    expect(textWindow('short', 'x', 100)).toBe('short');
  });

  it('centres the window on the snippet and marks the cuts', () => {
    const window = textWindow(text, 'key finding is that X rose', 2000);
    expect(window).toContain('The key finding is that X rose by 40 percent');
    expect(window.startsWith('[...truncated]')).toBe(true);
    expect(window.endsWith('[...truncated]')).toBe(true);
  });

  it('falls back to the start when the snippet is not found', () => {
    expect(textWindow(text, 'nothing like this', 100).startsWith('intro intro')).toBe(true);
  });
});

describe('interleave', () => {
  it('takes results round-robin, drops repeats and caps', () => {
    expect(interleave([[1, 2, 3], [4, 1], [5]], (x) => x, 10)).toEqual([1, 4, 5, 2, 3]);
    expect(
      interleave(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        (x) => x,
        3,
      ),
    ).toEqual([1, 4, 2]);
  });
});
