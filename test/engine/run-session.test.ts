import { describe, expect, it } from 'vitest';
import { answerClarification, newSession, runSession } from '../../src/engine/run-session.js';
import type { SessionState } from '../../src/engine/session-state.js';
import type { LlmRequest } from '../../src/ports/llm.js';
import { fakeKnowledgeBase, fakePageReader, fakeWebSearch, hit } from '../fakes/fake-tools.js';
import {
  agentWithTask,
  call,
  dispatch,
  type Lane,
  planLane,
  purpose,
  ScriptedLlm,
  say,
} from '../fakes/scripted-llm.js';
import { harness, run, testSettings } from '../helpers/engine-harness.js';
import {
  corpusTools,
  finalReportStep,
  researcher,
  standardScript,
  URL_A,
  URL_B,
  URL_C,
} from '../helpers/scenario.js';

const QUESTION = { question: 'How do heat pumps compare with gas boilers?' };
const lastToolResult = (req: LlmRequest) => req.messages.filter((m) => m.role === 'tool').at(-1)!.content;

describe('research session', () => {
  it('runs plan, two research cycles and a cited report whose sources are exactly the cited ones', async () => {
    const llm = new ScriptedLlm(standardScript());
    const h = harness(llm, corpusTools());
    const outcome = await run(h, testSettings(), QUESTION);
    llm.assertDone();
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    const { markdown, sources } = outcome.report;
    const cited = [...markdown.matchAll(/Fact about (\S+) \[(\d+)\]/g)].map(
      (m) => [m[1], Number(m[2])] as const,
    );
    expect(cited.length).toBe(5);
    for (const [url, n] of cited) expect(sources[n - 1]!.key).toBe(url);
    expect(sources.map((s) => s.n)).toEqual([1, 2, 3, 4]);
    expect(new Set(sources.map((s) => s.key))).toEqual(
      new Set([URL_A, URL_B, URL_C, 'https://d.example/grants']),
    );
    expect(markdown).not.toContain('[999]');
    expect(markdown).toContain('x = y[2]');
    expect(outcome.report.partial).toBeNull();
    expect(h.checkpoints.map((c) => `${c.phase}:${c.cycle}`)).toEqual([
      'research:0',
      'research:1',
      'research:2',
      'report:2',
      'done:2',
    ]);
    expect(h.events.filter((e) => e.type === 'plan_delta').length).toBeGreaterThan(0);
  });

  it('runs at most 3 agents at once when the model asks for 5 in one turn', async () => {
    const tasks = ['A', 'B', 'C', 'D', 'E'].map((t) => `task ${t}`);
    const agents: Lane[] = tasks.map((task) => ({
      name: task,
      match: agentWithTask(task),
      steps: [
        { ...call('web_search', { queries: ['heat pump costs'] }), delayMs: 40 },
        call('generate_report'),
        say('Found [1].'),
      ],
    }));
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [dispatch(...tasks), call('generate_report')],
      },
      ...agents,
      { name: 'report', match: purpose('final_report'), steps: [say('Report [1].')] },
    ]);
    const h = harness(llm, corpusTools());
    const outcome = await run(h, testSettings(), QUESTION);
    llm.assertDone();
    let running = 0;
    let peak = 0;
    for (const e of h.events) {
      if (e.type === 'agent_started') peak = Math.max(peak, ++running);
      if (e.type === 'agent_done' || e.type === 'agent_failed') running--;
    }
    expect(peak).toBe(3);
    expect(llm.maxInFlight.agent).toBe(3);
    expect(h.events.filter((e) => e.type === 'agent_done')).toHaveLength(5);
    expect(outcome.kind).toBe('done');
  });

  it('ends within its time budget when the model is slow, with a partial report of what was found', async () => {
    const SLOW = { delayMs: 60_000 };
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' }), { ...call('generate_report'), ...SLOW }],
      },
      {
        name: 'agent',
        match: agentWithTask('T1 costs'),
        steps: [
          call('web_search', { queries: ['heat pump costs'] }),
          { ...call('generate_report'), ...SLOW },
          say(`Fact [1].`),
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [{ ...say('never'), ...SLOW }] },
    ]);
    const h = harness(llm, corpusTools());
    const budget = 3000;
    const started = Date.now();
    const outcome = await run(h, testSettings({ timeBudgetMs: budget }), QUESTION);
    const elapsed = Date.now() - started;
    llm.assertDone();
    // The hung calls would take 60 s: ending well before that proves the budget cut them (a margin, not a
    // stopwatch, so a busy machine passes too).
    expect(elapsed).toBeLessThan(budget + 15_000);
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(outcome.report.partial).not.toBeNull();
    expect(outcome.report.markdown).toMatch(/^> \*\*Partial report:\*\*/);
    expect(outcome.report.markdown).toContain('Fact [1].');
    expect(outcome.report.sources[0]!.url).toBe(URL_A);
    expect(h.events).toContainEqual({ type: 'research_stopped', reason: 'time_budget' });
  });

  it('resumes from the checkpoint after cycle 1 and ends with the same report as an uninterrupted run', async () => {
    const whole = new ScriptedLlm(standardScript());
    const uninterrupted = await run(harness(whole, corpusTools()), testSettings(), QUESTION);
    whole.assertDone();

    const stop = new AbortController();
    const first = new ScriptedLlm(
      standardScript().map((l) =>
        l.name.startsWith('agent T3') || l.name === 'report' ? { ...l, steps: [] } : l,
      ),
    );
    // The orchestrator's later steps are not reached in the stopped run.
    const firstHarness = harness(first, corpusTools(), (state) => {
      if (state.phase === 'research' && state.cycle === 1) stop.abort();
    });
    const stopped = await run(firstHarness, testSettings(), QUESTION, stop.signal);
    expect(stopped.kind).toBe('cancelled');
    // What was found is labelled as a cancelled research's findings, never as failed agents.
    const found = stopped.kind === 'cancelled' ? stopped.found : null;
    expect(found?.partial).toBe('cancelled');
    expect(found?.markdown).toMatch(
      /^> \*\*Partial report:\*\* the research was cancelled; these are the findings/,
    );
    expect(found?.markdown).not.toContain('failed');
    const checkpoint: SessionState = firstHarness.checkpoints.at(-1)!;
    expect(checkpoint.cycle).toBe(1);

    const second = new ScriptedLlm(standardScript(2));
    const resumed = await runSession(harness(second, corpusTools()).deps, testSettings(), checkpoint);
    second.assertDone();
    expect(resumed.kind).toBe('done');
    expect(uninterrupted.kind).toBe('done');
    if (resumed.kind !== 'done' || uninterrupted.kind !== 'done') return;
    expect(resumed.report.markdown).toBe(uninterrupted.report.markdown);
    expect(resumed.report.sources).toEqual(uninterrupted.report.sources);
    const reportRequest = (l: ScriptedLlm) => l.calls.find((c) => c.purpose === 'final_report')!.messages;
    expect(reportRequest(second)).toEqual(reportRequest(whole));
  });

  it('recovers from malformed and unknown tool calls', async () => {
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          {
            reply: {
              toolCalls: [
                { name: 'research_agent', rawArgs: '{"task": ' },
                { name: 'research_agent', args: {} },
                { name: 'search_web', args: { q: 'x' } },
                { name: 'research_agent', args: { task: 'T1 costs' } },
              ],
            },
          },
          {
            ...call('generate_report'),
            expect: (req) => {
              const results = req.messages.filter((m) => m.role === 'tool').map((m) => m.content);
              expect(results[0]).toContain('not valid JSON');
              expect(results[1]).toMatch(/invalid arguments for research_agent/);
              expect(results[2]).toContain('no tool named "search_web"');
              expect(results[3]).toContain('Fact');
            },
          },
        ],
      },
      {
        name: 'agent',
        match: agentWithTask('T1 costs'),
        steps: [
          { reply: { toolCalls: [{ name: 'web_search', rawArgs: '{"queries": 42}' }] } },
          {
            ...call('web_search', { queries: 'heat pump costs' }),
            expect: (req) => expect(lastToolResult(req)).toMatch(/invalid arguments for web_search/),
          },
          call('generate_report'),
          say('Fact [1].'),
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [say('Report [1].')] },
    ]);
    const outcome = await run(harness(llm, corpusTools()), testSettings(), QUESTION);
    llm.assertDone();
    expect(outcome.kind).toBe('done');
  });

  it('isolates failing agents, and fails with the cause when every agent failed instead of inventing a report', async () => {
    const boom = new Error('model server exploded');
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          dispatch('T1', 'T2'),
          {
            ...call('generate_report'),
            expect: (req) =>
              expect(req.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
                expect.stringContaining('Research agent failed: model server exploded'),
                expect.stringContaining('Research agent failed'),
              ]),
          },
        ],
      },
      { name: 'T1', match: agentWithTask('T1'), steps: [{ error: boom }] },
      { name: 'T2', match: agentWithTask('T2'), steps: [{ error: boom }] },
    ]);
    const h = harness(llm, corpusTools());
    // Nothing to report on is a failure with its cause, never a "complete" report about nothing.
    await expect(run(h, testSettings(), QUESTION)).rejects.toThrow(
      /^Every research agent failed \(model server exploded\), so there is nothing to report/,
    );
    llm.assertDone();
    expect(h.events.filter((e) => e.type === 'agent_failed')).toHaveLength(2);
  });

  it.each([
    [
      'ignores tool_choice none and answers with a tool call',
      { reply: { toolCalls: [{ name: 'web_search', args: { queries: ['more'] } }] } },
    ],
    [
      'refuses a request with tools and tool_choice none',
      { error: new Error('400 tool_choice none is not supported') },
    ],
  ])('asks for an agent report without tools when the server %s', async (_, first) => {
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' }), call('generate_report')],
      },
      {
        name: 'T1',
        match: agentWithTask('T1 costs'),
        steps: [
          call('web_search', { queries: ['heat pump costs'] }),
          call('generate_report'),
          // The report request reuses the agent's conversation, tools included, with tool_choice none.
          {
            ...first,
            expect: (req) =>
              expect([req.purpose, req.toolChoice, req.tools?.length]).toEqual(['agent_report', 'none', 4]),
          },
          {
            reply: { text: 'Costs fell [1].' },
            expect: (req) => expect([req.purpose, req.tools]).toEqual(['agent_report', undefined]),
          },
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [say('Costs fell [1].')] },
    ]);
    const outcome = await run(harness(llm, corpusTools()), testSettings(), QUESTION);
    llm.assertDone();
    expect(outcome.kind === 'done' && outcome.report.markdown).toBe('Costs fell [1].');
  });

  it('names the model when its research answers were unusable (a refusal in text, then invalid arguments), never "found nothing"', async () => {
    const refusal = { reply: { text: "I'm sorry, I can't help with browsing." } };
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          { reply: { toolCalls: [{ name: 'research_agent', rawArgs: '{"task": "tides' }] } },
          dispatch('T1'),
          call('generate_report'),
        ],
      },
      { name: 'T1', match: agentWithTask('T1'), steps: [refusal, refusal, refusal] },
    ]);
    const h = harness(llm, corpusTools());
    await expect(
      run(h, { ...testSettings(), maxAgentCycles: 3, modelServer: 'http://models.local/v1' }, QUESTION),
    ).rejects.toThrow(
      /^The model server at http:\/\/models\.local\/v1 sent answers the research could not use \(it answered in text instead of calling a tool: "I'm sorry, I can't help with browsing\."\), so nothing was researched/,
    );
    llm.assertDone();
  });

  it('fails an agent whose model keeps sending invalid tool arguments, with that reason', async () => {
    const garbage = { reply: { toolCalls: [{ name: 'web_search', rawArgs: '{"queries": ["heat' }] } };
    const wrongType = { reply: { toolCalls: [{ name: 'web_search', args: { queries: 42 } }] } };
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          dispatch('T1'),
          {
            ...call('generate_report'),
            expect: (req) =>
              expect(req.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
                expect.stringContaining('the model kept sending tool calls with invalid arguments'),
              ]),
          },
        ],
      },
      { name: 'T1', match: agentWithTask('T1'), steps: [garbage, wrongType, garbage] },
    ]);
    const h = harness(llm, corpusTools());
    await expect(run(h, testSettings(), QUESTION)).rejects.toThrow(
      /^Every research agent failed \(the model kept sending tool calls with invalid arguments \(the arguments for web_search were not valid JSON\)\)/,
    );
    llm.assertDone();
    expect(h.events.filter((e) => e.type === 'agent_failed')).toHaveLength(1);
  });

  it.each([
    ['token_budget', { tokenBudget: 300 }],
    ['tool_call_budget', { toolCallBudget: 1 }],
  ] as const)('stops research at the %s and labels the report partial', async (reason, limits) => {
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' })],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A]),
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    // The agent stops after its first search, so its generate_report step is never asked for.
    const lane = (llm as unknown as { lanes: Lane[] }).lanes.find((l) => l.name === 'agent T1 costs')!;
    lane.steps.splice(1, 1);
    const h = harness(llm, corpusTools());
    const outcome = await run(h, testSettings(limits), QUESTION);
    llm.assertDone();
    expect(outcome.kind === 'done' && outcome.report.partial).toBe(reason);
    expect(outcome.kind === 'done' && outcome.report.markdown).toContain(`Fact about ${URL_A} [1]`);
  });

  it('shares searches and pages across agents and tells new agents what was already done', async () => {
    const tools = corpusTools();
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [
          dispatch('T1 costs', 'T2 costs again'),
          call('research_agent', { task: 'T3 follow-up' }),
          call('generate_report'),
        ],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A], URL_A),
      researcher('T2 costs again', 'Heat  Pump COSTS', [URL_A], `${URL_A}#section`),
      {
        name: 'T3',
        match: agentWithTask('T3 follow-up'),
        steps: [
          {
            ...call('generate_report'),
            expect: (req) => {
              const first = req.messages.find((m) => m.role === 'user')!.content;
              expect(first).toContain('- heat pump costs');
              expect(first).toContain(`- ${URL_A}`);
            },
          },
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    const outcome = await run(harness(llm, tools), testSettings(), QUESTION);
    llm.assertDone();
    expect(tools.webSearch.queries).toEqual(['heat pump costs']);
    expect(tools.pageReader.reads).toEqual([URL_A]);
    expect(outcome.kind === 'done' && outcome.report.sources.map((s) => s.url)).toEqual([URL_A]);
  });

  it('writes the report by rolling synthesis when findings exceed the report input budget', async () => {
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [dispatch('T1 costs', 'T2 boiler'), call('generate_report')],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A]),
      researcher('T2 boiler', 'boiler efficiency', [URL_C]),
      { name: 'draft', match: purpose('final_report'), steps: [finalReportStep] },
      {
        name: 'merge',
        match: purpose('report_merge'),
        steps: [1].map((pass) => ({
          reply: (req) => {
            const draft = req.messages.find((m) => m.content.startsWith('Current report draft'))!.content;
            const added = req.messages.find((m) => m.content.startsWith('New findings'))!.content;
            expect(draft).toContain('Fact about');
            const facts = [...added.matchAll(/Fact about \S+ \[\d+\]\./g)].map((m) => m[0]);
            return {
              text: `${draft.replace('Current report draft:\n\n', '')}\n${facts.join('\n')}\n<!-- pass ${pass} -->`,
            };
          },
        })),
      },
    ]);
    // A budget this small makes each finding its own pass: a draft from T1, then T2 merged in.
    const outcome = await run(harness(llm, corpusTools()), testSettings({ reportInputTokens: 1 }), QUESTION);
    llm.assertDone();
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(outcome.report.markdown).toContain(`Fact about ${URL_A} [1]`);
    expect(outcome.report.markdown).toContain(`Fact about ${URL_C} [2]`);
    expect(outcome.report.sources.map((s) => s.url)).toEqual([URL_A, URL_C]);
  });

  it('asks clarifying questions once, then plans with the answer', async () => {
    const llm = new ScriptedLlm([
      {
        name: 'clarify',
        match: purpose('clarify'),
        steps: [say('1. Which region?\n2. New build or retrofit?')],
      },
      {
        name: 'plan',
        match: purpose('plan'),
        steps: [
          {
            ...say('1. Step'),
            expect: (req) => expect(req.messages[1]!.content).toMatch(/My answers:\nRetrofit in England/),
          },
        ],
      },
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 costs' }), call('generate_report')],
      },
      researcher('T1 costs', 'heat pump costs', [URL_A]),
      { name: 'report', match: purpose('final_report'), steps: [finalReportStep] },
    ]);
    const h = harness(llm, corpusTools());
    const first = await runSession(h.deps, testSettings(), newSession('s-2', QUESTION));
    expect(first.kind).toBe('needs_clarification');
    if (first.kind !== 'needs_clarification') return;
    expect(first.questions).toContain('Which region?');
    const second = await runSession(
      h.deps,
      testSettings(),
      answerClarification(first.state, 'Retrofit in England'),
    );
    llm.assertDone();
    expect(second.kind).toBe('done');
  });

  it('offers internal_search only when the knowledge base has documents, and cites its documents', async () => {
    const kb = fakeKnowledgeBase([
      {
        documentId: 'd1',
        title: 'Office heating policy',
        path: 'policies/heating.md',
        text: 'We use heat pumps in all offices since 2023.',
      },
    ]);
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 policy' }), call('generate_report')],
      },
      {
        name: 'agent',
        match: agentWithTask('T1 policy'),
        steps: [
          {
            ...call('internal_search', { queries: ['heat pumps'] }),
            expect: (req) =>
              expect(req.tools!.map((t) => t.name)).toEqual([
                'internal_search',
                'think_tool',
                'generate_report',
              ]),
          },
          call('generate_report'),
          say('Policy [1].'),
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [say('Our offices use heat pumps [1].')] },
    ]);
    const outcome = await run(harness(llm, { knowledgeBase: kb }), testSettings(), QUESTION);
    llm.assertDone();
    expect(outcome.kind === 'done' && outcome.report.sources).toEqual([
      expect.objectContaining({
        n: 1,
        kind: 'kb',
        title: 'Office heating policy',
        path: 'policies/heating.md',
      }),
    ]);

    const empty = fakeKnowledgeBase([]);
    await expect(
      run(harness(new ScriptedLlm([]), { knowledgeBase: empty }), testSettings(), QUESTION),
    ).rejects.toThrow(/No search provider is configured/);
  });

  it('names the knowledge base as the cause when it failed every time and nothing was found', async () => {
    const kb = {
      hasDocuments: async () => true,
      search: async () => {
        throw new Error('connection terminated unexpectedly');
      },
    };
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1 policy' }), call('generate_report')],
      },
      {
        name: 'agent',
        match: agentWithTask('T1 policy'),
        steps: [
          call('internal_search', { queries: ['heat pumps'] }),
          call('internal_search', { queries: ['heating policy'] }),
          call('generate_report'),
        ],
      },
    ]);
    await expect(run(harness(llm, { knowledgeBase: kb }), testSettings(), QUESTION)).rejects.toThrow(
      /^The knowledge base failed every time it was tried \(connection terminated unexpectedly\), so nothing could be researched: check the database that holds it \(DATABASE_URL\)/,
    );
    llm.assertDone();
  });

  it('names the knowledge base when it cannot be read at the start and there is no web search', async () => {
    const kb = {
      hasDocuments: async () => {
        throw new Error('ECONNREFUSED');
      },
      search: async () => [],
    };
    await expect(
      run(harness(new ScriptedLlm([]), { knowledgeBase: kb }), testSettings(), QUESTION),
    ).rejects.toThrow(/^The knowledge base could not be read \(ECONNREFUSED\) and there is no web search/);
  });

  it('reports failed searches and unreadable pages to the model as tool results', async () => {
    const webSearch = fakeWebSearch({ ok: [hit(URL_A, 'A')] }, { failing: ['broken'] });
    const pageReader = fakePageReader({ [URL_B]: { fail: 'blocked by a bot challenge (Cloudflare)' } });
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [call('research_agent', { task: 'T1' }), call('generate_report')],
      },
      {
        name: 'agent',
        match: agentWithTask('T1'),
        steps: [
          call('web_search', { queries: ['broken'] }),
          {
            ...call('web_search', { queries: ['broken', 'ok'] }),
            expect: (req) =>
              expect(lastToolResult(req)).toContain(
                'every search failed: broken (search provider timed out)',
              ),
          },
          {
            ...call('open_url', { urls: [URL_B, 'not a url'] }),
            expect: (req) => {
              const result = JSON.parse(req.messages.filter((m) => m.role === 'tool').at(-1)!.content);
              expect(result.failed).toEqual(['broken (search provider timed out)']);
              expect(result.results[0].url).toBe(URL_A);
            },
          },
          {
            ...call('generate_report'),
            expect: (req) =>
              expect(lastToolResult(req)).toBe(
                `Failed to fetch content from not a url (not an absolute http(s) URL), ${URL_B} (blocked by a bot challenge (Cloudflare))`,
              ),
          },
          say('A [1].'),
        ],
      },
      { name: 'report', match: purpose('final_report'), steps: [say('Done [1].')] },
    ]);
    const outcome = await run(harness(llm, { webSearch, pageReader }), testSettings(), QUESTION);
    llm.assertDone();
    expect(outcome.kind).toBe('done');
    // A refused read is not a page read.
    expect(outcome.state.usage).toMatchObject({ pagesRead: 0, pagesFailed: 1 });
  });

  it('caps an agent that only thinks, and runs at most 5 queries per search call', async () => {
    const webSearch = fakeWebSearch({});
    const queries = ['q1', 'q2', 'Q1', 'q3', 'q4', 'q5', 'q6', 'q7'];
    const llm = new ScriptedLlm([
      planLane(),
      {
        name: 'orchestrator',
        match: purpose('orchestrator'),
        steps: [dispatch('T1 ponder', 'T2 many queries'), call('generate_report')],
      },
      // maxAgentCycles 2 allows 6 turns in all, however many are thoughts.
      {
        name: 'T1',
        match: agentWithTask('T1 ponder'),
        steps: Array.from({ length: 6 }, () => call('think_tool', { reasoning: 'hmm' })),
      },
      {
        name: 'T2',
        match: agentWithTask('T2 many queries'),
        steps: [
          call('web_search', { queries }),
          {
            ...call('generate_report'),
            expect: (req) => expect(lastToolResult(req)).toContain('Only the first 5 queries were run'),
          },
        ],
      },
    ]);
    const outcome = await run(harness(llm, { webSearch }), testSettings({ maxAgentCycles: 2 }), QUESTION);
    llm.assertDone();
    expect(webSearch.queries).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(outcome.kind === 'done' && outcome.report.markdown).toContain('found no sources');
  });
});
