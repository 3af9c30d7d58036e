import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import type { EngineSettings } from '../../../src/engine/settings.js';
import { defineTool, toolSpec } from '../../../src/engine/tools/define-tool.js';
import { runToolCall, specsFor, toolsFor } from '../../../src/engine/tools/tools.js';
import { webSearchTool } from '../../../src/engine/tools/web-search-tool.js';
import { fakeKnowledgeBase, fakePageReader, fakeWebSearch } from '../../fakes/fake-tools.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

function context(
  tools: Parameters<typeof harness>[1],
  options: { internal?: boolean; settings?: Partial<EngineSettings> } = {},
) {
  const h = harness(new ScriptedLlm([]), tools);
  const state = newSession('s-1', { question: 'Q?' });
  return createContext(
    h.deps,
    testSettings(options.settings),
    state,
    new AbortController().signal,
    options.internal ?? false,
  );
}
const names = (ctx: ReturnType<typeof context>, role: 'clarify' | 'orchestrator' | 'agent') =>
  toolsFor(ctx, role).map((t) => t.name);
const reasoning = { name: 'o3', reasoning: true };

describe('the tools offered to each role', () => {
  it('offers every research tool the session has, in a fixed order', () => {
    const ctx = context(
      { webSearch: fakeWebSearch({}), pageReader: fakePageReader({}), knowledgeBase: fakeKnowledgeBase([]) },
      { internal: true },
    );
    expect(names(ctx, 'clarify')).toEqual(['generate_plan']);
    expect(names(ctx, 'orchestrator')).toEqual(['research_agent', 'think_tool', 'generate_report']);
    expect(names(ctx, 'agent')).toEqual([
      'web_search',
      'open_url',
      'internal_search',
      'think_tool',
      'generate_report',
    ]);
  });

  it('leaves out what the session cannot use, and think_tool for models that reason natively', () => {
    const ctx = context(
      { knowledgeBase: fakeKnowledgeBase([]) },
      {
        internal: true,
        settings: { models: { orchestrator: reasoning, agent: reasoning, report: reasoning } },
      },
    );
    expect(names(ctx, 'orchestrator')).toEqual(['research_agent', 'generate_report']);
    expect(names(ctx, 'agent')).toEqual(['internal_search', 'generate_report']);
  });

  it('derives each definition from the tool: role-specific description, JSON Schema from the zod input', () => {
    expect(toolSpec(webSearchTool, 'agent')).toEqual({
      name: 'web_search',
      description: expect.stringContaining('Search the web'),
      parameters: {
        type: 'object',
        properties: {
          queries: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            description: 'Search queries, at most 3.',
          },
        },
        required: ['queries'],
        additionalProperties: false,
      },
    });
    const ctx = context({ webSearch: fakeWebSearch({}) });
    const [orchestratorReport] = specsFor(toolsFor(ctx, 'orchestrator'), 'orchestrator').filter(
      (s) => s.name === 'generate_report',
    );
    const [agentReport] = specsFor(toolsFor(ctx, 'agent'), 'agent').filter(
      (s) => s.name === 'generate_report',
    );
    expect(orchestratorReport!.description).toMatch(/final research report/);
    expect(agentReport!.description).toMatch(/your report on the task/);
  });

  it('answers a call to a tool not on offer, or over the budget, with a message for the model', async () => {
    const ctx = context({ webSearch: fakeWebSearch({}) }, { settings: { toolCallBudget: 0 } });
    const env = agentEnv(ctx);
    const offered = toolsFor(ctx, 'agent');
    const call = (name: string, args: object) => ({ id: 'c1', name, arguments: JSON.stringify(args) });
    expect((await runToolCall(call('open_url', { urls: ['https://a.example'] }), offered, env)).content).toBe(
      'Error: there is no tool named "open_url" here. Available tools: web_search, think_tool, generate_report.',
    );
    expect((await runToolCall(call('web_search', { queries: ['x'] }), offered, env)).content).toMatch(
      /tool-call budget for this research is used up/,
    );
    expect((await runToolCall(call('think_tool', { reasoning: 'hm' }), offered, env)).content).toBe(
      'Acknowledged, please continue.',
    );
  });

  it('turns a tool that throws into a result for the model, and the session goes on', async () => {
    const ctx = context({ webSearch: fakeWebSearch({}) });
    const exploding = defineTool({
      name: 'explode',
      description: 'Throws.',
      input: z.object({}),
      isEnabled: () => true,
      execute: () => {
        throw new Error('kaboom');
      },
    });
    const env = agentEnv(ctx);
    const outcome = await runToolCall({ id: 'c1', name: 'explode', arguments: '{}' }, [exploding], env);
    expect(outcome).toEqual({
      content: 'Error: explode failed (kaboom). Try again differently, or go on without it.',
      shown: [],
    });
  });
});

/** What an agent's tool call runs with, in these tests. */
function agentEnv(ctx: ReturnType<typeof context>) {
  return {
    ctx,
    role: 'agent' as const,
    id: 'a',
    until: Date.now() + 10_000,
    activity: () => {},
    queue: <T>(w: () => Promise<T>) => w(),
  };
}
