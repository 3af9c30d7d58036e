import { afterEach, describe, expect, it } from 'vitest';
import { deepResearchBackend } from '../../../src/backends/deep-research-api/deep-research-backend.js';
import type { TaskGraphState } from '../../../src/backends/deep-research-api/task-state.js';
import type { SessionState } from '../../../src/engine/session-state.js';
import { countTokens } from '../../../src/llm/count-tokens.js';
import { ResponsesApi } from '../../../src/llm/responses-api.js';
import { systemClock } from '../../../src/ports/clock.js';
import { silentLogger } from '../../../src/ports/logger.js';
import type { PageReader } from '../../../src/ports/page-reader.js';
import type { Checkpoint, ResearchEvent, ResearchOutcome } from '../../../src/ports/research.js';
import type { SourceTexts } from '../../../src/ports/source-texts.js';
import { type CreateBody, fakeResponsesApi, type HostedScript } from '../../fakes/fake-responses-api.js';
import { memorySourceTexts } from '../../fakes/memory-source-texts.js';
import { graph, TaskGraphLlm } from '../../fakes/task-graph-llm.js';
import { prompts, testSettings } from '../../helpers/engine-harness.js';

type Fake = Awaited<ReturnType<typeof fakeResponsesApi>>;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const cite = (id: string) => `Finding about ${id} {{https://${id}.example/page|${id} source}}.`;

async function backend(
  plans: unknown[],
  script: (body: CreateBody) => HostedScript,
  overrides = {},
  adapters: { pageReader?: PageReader; sourceTexts?: SourceTexts } = {},
) {
  fake = await fakeResponsesApi(script);
  const llm = new TaskGraphLlm(plans);
  const engine = { llm, prompts, countTokens, clock: systemClock, logger: silentLogger, ...adapters };
  const api = new ResponsesApi({
    apiKey: 'sk-test',
    baseURL: fake.baseUrl,
    maxRetries: 2,
    timeoutMs: 5000,
    logger: silentLogger,
  });
  const settings = testSettings({
    prices: {
      models: { 'test-model': { input: 1, output: 2 }, 'gpt-5.5': { input: 2, output: 8 } },
      searchPer1k: 0,
      hostedSearchPer1k: 10,
    },
    ...overrides,
  });
  const research = deepResearchBackend(async () => engine, settings, api, {
    model: 'gpt-5.5',
    effort: 'high',
    maxTasks: 6,
    taskTimeMs: 60_000,
    pollMs: 20,
  });
  return { research, llm, fake: fake! };
}

async function run(
  research: Awaited<ReturnType<typeof backend>>['research'],
  checkpoint: Checkpoint,
  options: {
    signal?: AbortSignal;
    handedBack?: () => boolean;
    spendLimitUsd?: number;
    steering?: (after: number) => Promise<{ id: number; text: string }[]>;
  } = {},
) {
  const events: ResearchEvent[] = [];
  const saved: SessionState[] = [];
  const outcome: ResearchOutcome = await research.run({
    checkpoint,
    emit: (e) => events.push(e),
    saveCheckpoint: async (c) => void saved.push(structuredClone(c as SessionState)),
    signal: options.signal ?? new AbortController().signal,
    handedBack: options.handedBack,
    spendLimitUsd: options.spendLimitUsd,
    steering: options.steering,
    logger: silentLogger,
  });
  return { outcome, events, saved };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

describe('the deep-research backend', () => {
  it('runs the task graph in dependency order, gives a task its dependency’s findings, and cites the annotated URLs', async () => {
    const { research, fake } = await backend(
      [
        graph([
          ['costs', 3],
          ['grants', 2],
          ['compare', 1, ['costs']],
        ]),
      ],
      (body) => ({
        polls: 2,
        searches: [`search for ${body.metadata.task_id}`],
        pages: [`https://${body.metadata.task_id}.example/page`],
        reasoning: [`**Planning ${body.metadata.task_id}**\n\nI will look for recent figures.`],
        answer: cite(body.metadata.task_id!),
        usage: { input: 1000, cached: 200, output: 300, reasoning: 100 },
      }),
    );
    const start = research.begin('s-1', { question: 'Heat pumps or gas?', skipClarification: true });
    const { outcome, events } = await run(research, start);
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    const order = fake.calls.creates.map((c) => c.metadata.task_id);
    expect(order.indexOf('compare')).toBeGreaterThan(order.indexOf('costs'));
    // The dependent task was created only after its dependency had finished, and was told what it found.
    const compare = fake.calls.creates.find((c) => c.metadata.task_id === 'compare')!;
    expect(compare.instructions).toContain('Findings of the tasks it builds on');
    expect(compare.instructions).toMatch(/Finding about costs \[\d\]\./);
    expect(compare).toMatchObject({
      background: true,
      model: 'gpt-5.5',
      tools: [{ type: 'web_search' }],
      reasoning: { effort: 'high', summary: 'auto' },
    });
    // Every task's card: started, its searches and pages, done with its sources.
    for (const id of ['costs', 'grants', 'compare']) {
      expect(events).toContainEqual({ type: 'agent_started', agentId: id, task: `What about ${id}?` });
      expect(events).toContainEqual({
        type: 'agent_activity',
        agentId: id,
        activity: { kind: 'searching', queries: [`search for ${id}`] },
      });
      expect(events).toContainEqual({ type: 'agent_done', agentId: id, sources: 1 });
      // The hosted model's reasoning summaries show as what the task is thinking about.
      expect(events).toContainEqual({
        type: 'agent_activity',
        agentId: id,
        activity: { kind: 'thinking', about: `Planning ${id}` },
      });
    }
    expect(outcome.report.sources.map((s) => s.url).sort()).toEqual([
      'https://compare.example/page',
      'https://costs.example/page',
      'https://grants.example/page',
    ]);
    expect(outcome.report.markdown).toMatch(/Finding about costs \[\d\]\./);
    expect(outcome.report.partial).toBeNull();
    // Hosted tokens and searches are counted and priced.
    const usage = outcome.view.usage;
    expect(usage.hostedSearches).toBe(3);
    expect(usage.models.find((m) => m.purpose === 'deep_research')).toMatchObject({
      calls: 3,
      inputTokens: 3000,
      outputTokens: 900,
      cachedInputTokens: 600,
    });
    expect(outcome.report.costUsd).toBeGreaterThan(0.03);
  });

  it("checks a task's citations against the pages it cites, quoting each page's own words, and says which only against the answer", async () => {
    const PAGES: Record<string, string> = {
      'https://costs.example/page':
        'Menu | Home | Energy\nOur finding about costs: heat pumps cost 30 percent less to run than gas boilers, the agency said. Prices vary by region.',
      'https://grants.example/page':
        'Grants\nA finding about grants: the boiler upgrade scheme pays 7,500 pounds towards a heat pump installation. Applications open in May.',
    };
    const read: string[] = [];
    const pageReader: PageReader = {
      read: async (url) => {
        read.push(url);
        const text = PAGES[url];
        return text
          ? { ok: true, page: { url, title: new URL(url).hostname, text } }
          : { ok: false, kind: 'http_error', reason: 'HTTP 403' };
      },
    };
    const answers: Record<string, string> = {
      costs:
        'Finding about costs: heat pumps cost 30 percent less to run than gas boilers {{https://costs.example/page|costs}}.',
      grants:
        'Finding about grants: the boiler upgrade scheme pays 7,500 pounds towards a heat pump installation {{https://grants.example/page|grants}}.',
      compare:
        'Finding about compare: installers report waiting lists of eight weeks for heat pump installation {{https://compare.example/page|compare}}.',
    };
    const { research } = await backend(
      [
        graph([
          ['costs', 3],
          ['grants', 2],
          ['compare', 1],
        ]),
      ],
      (body) => ({ answer: answers[body.metadata.task_id!] }),
      { citationCheck: { mode: 'lexical', timeMs: 60_000, tokens: 60_000 } },
      { pageReader, sourceTexts: memorySourceTexts() },
    );
    const { outcome } = await run(
      research,
      research.begin('s-9', { question: 'Heat pumps?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(read.sort()).toEqual([
      'https://compare.example/page',
      'https://costs.example/page',
      'https://grants.example/page',
    ]);
    const quotes = Object.fromEntries(
      outcome.report.sources.map((s) => [new URL(s.url!).hostname, s.quotes ?? []]),
    );
    // Each page's own sentence, never the hosted answer's words about another page.
    expect(quotes).toEqual({
      'costs.example': [
        'Our finding about costs: heat pumps cost 30 percent less to run than gas boilers, the agency said.',
      ],
      'grants.example': [
        'A finding about grants: the boiler upgrade scheme pays 7,500 pounds towards a heat pump installation.',
      ],
      'compare.example': [],
    });
    // The page that could not be read was checked against the answer that cited it, and the figures say so.
    expect(outcome.report.citationCheck).toMatchObject({
      citations: 3,
      checked: 3,
      removed: 0,
      answerOnly: 1,
    });
    expect(outcome.view.usage.pagesFailed).toBe(1);
  });

  it('repairs a plan whose dependencies go round in a circle, and refuses a second bad one in one sentence', async () => {
    const circle = graph([
      ['a', 1, ['b']],
      ['b', 1, ['a']],
    ]);
    const good = graph([['a', 1]]);
    const ok = await backend([circle, good], (b) => ({ answer: cite(b.metadata.task_id!) }));
    const { outcome } = await run(
      ok.research,
      ok.research.begin('s-2', { question: 'Q?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    const repair = ok.llm.calls.filter((c) => c.purpose === 'plan')[1]!;
    expect(repair.messages.at(-1)!.content).toContain('the dependencies go round in a circle (a → b → a)');
    expect(repair.jsonSchema?.name).toBe('task_plan');
    await fake!.close();

    const bad = await backend([circle, 'not json'], () => ({}));
    const error = await run(
      bad.research,
      bad.research.begin('s-3', { question: 'Q?', skipClarification: true }),
    ).catch((e) => e);
    expect(error.message).toBe(
      "The planning model's task plan could not be used (it is not JSON), even after one correction: try again, or set RESEARCH_BACKEND=agents.",
    );
  });

  it('asks the clarifying questions the planner returns, then plans with the answer', async () => {
    const { research } = await backend(
      [{ questions: ['Which country?'], tasks: [] }, graph([['a', 1]])],
      (b) => ({ answer: cite(b.metadata.task_id!) }),
    );
    const first = await run(research, research.begin('s-4', { question: 'Heat pumps?' }));
    expect(first.outcome).toMatchObject({ kind: 'needs_clarification', questions: '1. Which country?' });
    const answered = research.answer(first.outcome.checkpoint, 'Scotland');
    const second = await run(research, answered);
    expect(second.outcome.kind).toBe('done');
  });

  it('reports a failed and an incomplete task by name in a partial report made from the rest', async () => {
    const { research } = await backend(
      [
        graph([
          ['costs', 3],
          ['grants', 2],
          ['installers', 1],
        ]),
      ],
      (b) =>
        b.metadata.task_id === 'grants'
          ? { end: 'failed' }
          : b.metadata.task_id === 'installers'
            ? { end: 'incomplete' }
            : { answer: cite(b.metadata.task_id!) },
    );
    const { outcome } = await run(
      research,
      research.begin('s-5', { question: 'Q?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(outcome.report.partial).toBe('agents_failed');
    expect(outcome.report.markdown).toContain(
      '> **Partial report:** 2 of 3 research tasks failed: “What about grants?” (failed: The model failed to generate a response.); “What about installers?” (incomplete: max_output_tokens).',
    );
    expect(outcome.report.sources.map((s) => s.url)).toEqual(['https://costs.example/page']);
  });

  it('on cancel cancels every request in flight and creates nothing more', async () => {
    const { research, fake } = await backend(
      [
        graph([
          ['a', 3],
          ['b', 2],
          ['c', 1, ['a']],
        ]),
      ],
      () => ({ hang: true }),
    );
    const cancel = new AbortController();
    const running = run(research, research.begin('s-6', { question: 'Q?', skipClarification: true }), {
      signal: cancel.signal,
    });
    await until(() => fake.calls.creates.length === 2 && fake.calls.retrieves.length >= 2);
    cancel.abort();
    const { outcome } = await running;
    expect(outcome.kind).toBe('cancelled');
    expect(fake.calls.cancels.sort()).toEqual(fake.calls.creates.map(() => expect.any(String)));
    expect(fake.inFlight()).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.calls.creates).toHaveLength(2);
  });

  it('re-attaches to requests already running when a handed-back session resumes: no second create', async () => {
    let release = false;
    const { research, fake } = await backend(
      [
        graph([
          ['a', 2],
          ['b', 1],
        ]),
      ],
      (b) => ({
        get hang() {
          return !release;
        },
        answer: cite(b.metadata.task_id!),
      }),
    );
    const drain = new AbortController();
    const first = run(research, research.begin('s-7', { question: 'Q?', skipClarification: true }), {
      signal: drain.signal,
      handedBack: () => true,
    });
    // Both requests created and polled: their ids are in the checkpoint.
    await until(() => new Set(fake.calls.retrieves).size === 2);
    drain.abort();
    const { saved } = await first;
    expect(fake.calls.cancels).toEqual([]);
    const last = saved.at(-1)!;
    expect(
      (last.backendState as TaskGraphState).tasks!.map((t) => [t.status, Boolean(t.responseId)]),
    ).toEqual([
      ['running', true],
      ['running', true],
    ]);
    release = true;
    const { outcome } = await run(research, last);
    expect(outcome.kind).toBe('done');
    expect(fake.calls.creates).toHaveLength(2);
    if (outcome.kind === 'done') expect(outcome.report.sources).toHaveLength(2);
  });

  it('writes the report by rolling synthesis when the task results exceed the report model’s input', async () => {
    const long = (id: string) => `${cite(id)}\n\n${'Background paragraph without new claims. '.repeat(400)}`;
    const { research, llm } = await backend(
      [
        graph([
          ['a', 3],
          ['b', 2],
          ['c', 1],
        ]),
      ],
      (b) => ({ answer: long(b.metadata.task_id!) }),
      { reportInputTokens: 9000 },
    );
    const { outcome } = await run(
      research,
      research.begin('s-8', { question: 'Q?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    const passes = llm.calls.filter((c) => c.purpose === 'final_report' || c.purpose === 'report_merge');
    expect(passes[0]!.purpose).toBe('final_report');
    expect(passes.length).toBeGreaterThanOrEqual(3);
    expect(passes.slice(1).every((c) => c.purpose === 'report_merge')).toBe(true);
    if (outcome.kind === 'done') {
      // Citations stay stable through the merges: each source keeps one number.
      expect(outcome.report.sources).toHaveLength(3);
      expect(outcome.report.markdown).toMatch(/Finding about c \[\d\]\./);
    }
  });

  it('hands the requester’s notes to tasks that start after them', async () => {
    const { research, fake } = await backend(
      [
        graph([
          ['a', 2],
          ['b', 1, ['a']],
        ]),
      ],
      (b) => ({ answer: cite(b.metadata.task_id!) }),
    );
    const created = () => fake.calls.creates.length;
    const steering = async (after: number) =>
      after === 0 && created() >= 1 ? [{ id: 1, text: 'Focus on Scotland' }] : [];
    const { outcome } = await run(
      research,
      research.begin('s-9', { question: 'Q?', skipClarification: true }),
      { steering },
    );
    expect(outcome.kind).toBe('done');
    const [a, b] = fake.calls.creates;
    expect(a!.instructions).not.toContain('Focus on Scotland');
    expect(b!.instructions).toContain('Focus on Scotland');
  });

  it('stops at the spending cap: what is running is cancelled, nothing more starts, the report is partial', async () => {
    const { research, fake } = await backend(
      [
        graph([
          ['a', 3],
          ['b', 2],
          ['c', 1],
        ]),
      ],
      (b) =>
        b.metadata.task_id === 'a'
          ? // A few polls, so b and c are surely under way when a's cost crosses the cap.
            {
              polls: 4,
              answer: cite('a'),
              usage: { input: 1_000_000, cached: 0, output: 100_000, reasoning: 0 },
            }
          : { hang: true },
    );
    const { outcome } = await run(
      research,
      research.begin('s-10', { question: 'Q?', skipClarification: true }),
      { spendLimitUsd: 1 },
    );
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(outcome.report.partial).toBe('spend_cap');
    expect(fake.calls.creates.map((c) => c.metadata.task_id).sort()).toEqual(['a', 'b', 'c']);
    expect(fake.inFlight()).toEqual([]);
    expect(fake.calls.cancels).toHaveLength(2);
    expect(outcome.report.sources.map((s) => s.url)).toEqual(['https://a.example/page']);
  });

  it('researches more with a new plan that builds on the delivered report, sources keeping their numbers', async () => {
    const { research, fake, llm } = await backend([graph([['a', 1]]), graph([['deeper', 1]])], (b) => ({
      answer: `${cite(b.metadata.task_id!)} ${b.metadata.task_id === 'deeper' ? 'Also {{https://a.example/page|a again}}.' : ''}`,
    }));
    const first = await run(research, research.begin('s-11', { question: 'Q?', skipClarification: true }));
    expect(first.outcome.kind).toBe('done');
    if (first.outcome.kind !== 'done') return;
    const next = research.continueFrom(first.outcome.checkpoint, 's-12', first.outcome.report);
    expect(research.view(next)).toMatchObject({ reportVersion: 2, phase: 'plan' });
    const second = await run(research, next);
    expect(second.outcome.kind).toBe('done');
    if (second.outcome.kind !== 'done') return;
    const plan = llm.calls.filter((c) => c.purpose === 'plan')[1]!;
    expect(plan.messages.map((m) => m.content).join('\n')).toContain('plan tasks that deepen and extend it');
    expect(fake.calls.creates.map((c) => c.metadata.task_id)).toEqual(['a', 'deeper']);
    // The earlier source keeps number 1; the new one comes after it.
    expect(second.outcome.report.sources.map((s) => [s.n, s.url])).toEqual([
      [1, 'https://a.example/page'],
      [2, 'https://deeper.example/page'],
    ]);
  });

  it('says which tasks failed and why when every one did, naming the deep-research API, instead of writing an empty report', async () => {
    const { research } = await backend(
      [
        graph([
          ['a', 2],
          ['b', 1],
        ]),
      ],
      () => ({ end: 'failed' }),
    );
    const error = await run(
      research,
      research.begin('s-13', { question: 'Q?', skipClarification: true }),
    ).catch((e) => e);
    expect(error.message).toBe(
      'Every research task failed (failed: The model failed to generate a response.), so there is nothing to report: try again later, or check the deep-research API (DEEP_RESEARCH_MODEL and your OpenAI account) if it keeps happening.',
    );
  });
});
