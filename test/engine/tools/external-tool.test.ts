import { describe, expect, it } from 'vitest';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import { LIMITS } from '../../../src/engine/settings.js';
import { externalTool } from '../../../src/engine/tools/external-tool.js';
import { runToolCall } from '../../../src/engine/tools/tools.js';
import type { ExternalDocument } from '../../../src/ports/external-tools.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const SPEC = {
  name: 'wiki__fetch',
  server: 'wiki',
  description: 'Fetches a page.',
  inputSchema: { type: 'object' },
};

function context(answer: ExternalDocument[]) {
  const h = harness(new ScriptedLlm([]), {});
  const deps = {
    ...h.deps,
    externalTools: { list: async () => [SPEC], call: async () => answer, close: async () => {} },
  };
  return createContext(
    deps,
    testSettings(),
    newSession('s-1', { question: 'Q?' }),
    new AbortController().signal,
    false,
  );
}

const run = (ctx: ReturnType<typeof context>) =>
  runToolCall({ id: 'c1', name: SPEC.name, arguments: '{}' }, [externalTool(SPEC)], {
    ctx,
    role: 'agent',
    id: 'a',
    until: Date.now() + 10_000,
    activity: () => {},
    queue: (w) => w(),
  });

describe('an MCP tool’s answer', () => {
  it('is capped as pages are, whatever the server sends, with a note to the model', async () => {
    // One 20 MB result, then 30 results of 10,000 characters.
    const huge = [{ key: 'mcp:wiki:big', title: 'Big', text: 'x'.repeat(20 * 1024 * 1024) }];
    const big = await run(context(huge));
    expect(big.content.length).toBeLessThan(LIMITS.charsPerPage + 2_000);
    expect(big.content).toContain(
      `has ${20 * 1024 * 1024} characters; ${LIMITS.charsPerPage + 15} are shown`,
    );
    const many = Array.from({ length: 30 }, (_, i) => ({
      key: `mcp:wiki:${i}`,
      title: `Doc ${i}`,
      text: 'y'.repeat(10_000),
    }));
    const listed = await run(context(many));
    // 15 documents fill the call's 150,000 characters; the next are named, not shown; past 20, not even named.
    expect(listed.shown).toHaveLength(LIMITS.charsPerCall / 10_000);
    const notes = (JSON.parse(listed.content) as { notes: string[] }).notes;
    expect(notes).toContain(
      `"Doc 15" was left out: this call's ${LIMITS.charsPerCall} characters are used up.`,
    );
    expect(notes).toContain(
      `The server returned 30 results; the first ${LIMITS.searchResultsPerCall} are shown.`,
    );
    expect(listed.content.length).toBeLessThan(LIMITS.charsPerCall + 10_000);
  });
});
