import { describe, expect, it } from 'vitest';
import { newSession, runSession } from '../../src/engine/run-session.js';
import type { ExternalTool } from '../../src/ports/external-tools.js';
import type { SourceLimits } from '../../src/ports/research.js';
import { fakeKnowledgeBase, fakePageReader, fakeWebSearch } from '../fakes/fake-tools.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import type { ScriptedLlm } from '../fakes/scripted-llm.js';
import { harness, testSettings } from '../helpers/engine-harness.js';

const tool = (server: string, name: string): ExternalTool => ({
  name: `${server}__${name}`,
  server,
  description: `Searches ${server}.`,
  inputSchema: { type: 'object' },
});

/** One research with every kind of source set up, under `sources`; the tools its agents were offered. */
async function offered(sources: SourceLimits | undefined) {
  const llm = new RuleLlm({ rounds: 1 });
  const web = fakeWebSearch({});
  const h = harness(llm as unknown as ScriptedLlm, {
    webSearch: web,
    pageReader: fakePageReader({}),
    knowledgeBase: fakeKnowledgeBase([
      { id: 'k1', title: 'Handbook', url: 'kb://1', text: 'Heating rules.' } as never,
    ]),
  });
  const deps = {
    ...h.deps,
    externalTools: {
      list: async () => [tool('wiki', 'search'), tool('jira', 'search')],
      call: async () => [],
      close: async () => {},
    },
  };
  await runSession(
    deps,
    testSettings({ sources }),
    newSession('s-1', { question: 'Q?', skipClarification: true }),
  );
  const agent = llm.calls.filter((c) => c.purpose === 'agent');
  return {
    tools: new Set(agent.flatMap((c) => (c.tools ?? []).map((t) => t.name))),
    searches: web.queries.length,
  };
}

describe("a channel policy's sources", () => {
  it('offer agents only what the policy allows: no web search or page reading, only the MCP servers named', async () => {
    const all = await offered(undefined);
    expect([...all.tools]).toEqual(
      expect.arrayContaining(['web_search', 'open_url', 'internal_search', 'wiki__search', 'jira__search']),
    );
    expect(all.searches).toBeGreaterThan(0);
    const kept = await offered({ web: false, knowledgeBase: true, threadFiles: true, mcpServers: ['wiki'] });
    expect([...kept.tools].sort()).toEqual([
      'generate_report',
      'internal_search',
      'think_tool',
      'wiki__search',
    ]);
    expect(kept.searches).toBe(0);
  });

  it('says in one sentence when nothing the policy allows is set up', async () => {
    await expect(
      offered({ web: false, knowledgeBase: false, threadFiles: true, mcpServers: [] }),
    ).rejects.toThrow("None of the sources this channel's research policy allows is set up here");
  });
});
