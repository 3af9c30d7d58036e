import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/engine/tools/define-tool.js';
import { generateReportTool } from '../../../src/engine/tools/generate-report-tool.js';
import { normalizeQueries, queryKey } from '../../../src/engine/tools/normalize-queries.js';
import { researchAgentTool } from '../../../src/engine/tools/research-agent-tool.js';
import { textWindow } from '../../../src/engine/tools/text-window.js';
import { interleave } from '../../../src/engine/tools/tool-result.js';
import { webSearchTool } from '../../../src/engine/tools/web-search-tool.js';

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

describe('parseArgs', () => {
  it('accepts valid arguments and normalises queries', () => {
    expect(parseArgs(webSearchTool, call('{"queries":"one query"}'))).toEqual({
      ok: true,
      value: { queries: ['one query'] },
    });
    expect(parseArgs(researchAgentTool, call('{"task":"  Find X  "}'))).toEqual({
      ok: true,
      value: { task: 'Find X' },
    });
    expect(parseArgs(generateReportTool, call(''))).toEqual({ ok: true, value: {} });
  });

  it('turns malformed calls into instructions the model can act on', () => {
    const bad = parseArgs(researchAgentTool, call('{"task": '));
    expect(bad).toEqual({ ok: false, message: expect.stringContaining('not valid JSON') });
    const missing = parseArgs(researchAgentTool, call('{}'));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.message).toMatch(/invalid arguments for research_agent.*"task"/);
    const empty = parseArgs(webSearchTool, call('{"queries":["  ",""]}'));
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
