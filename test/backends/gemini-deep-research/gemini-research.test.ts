import { afterEach, describe, expect, it } from 'vitest';
import { geminiDeepResearch } from '../../../src/backends/gemini-deep-research/gemini-deep-research.js';
import type { SessionState } from '../../../src/engine/session-state.js';
import { countTokens } from '../../../src/llm/count-tokens.js';
import { ModelLifecycle } from '../../../src/llm/model-lifecycle.js';
import { systemClock } from '../../../src/ports/clock.js';
import { ConfigError, ProviderError } from '../../../src/ports/errors.js';
import { silentLogger } from '../../../src/ports/logger.js';
import type { PageReader } from '../../../src/ports/page-reader.js';
import type { Checkpoint, ResearchBackend, ResearchEvent } from '../../../src/ports/research.js';
import { fakeInteractionsApi, GEMINI_KEY, type GeminiScript } from '../../fakes/fake-interactions-api.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { prompts, testSettings } from '../../helpers/engine-harness.js';

type Fake = Awaited<ReturnType<typeof fakeInteractionsApi>>;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Every page says what the report cites it for, so the claim check settles it on the page alone. */
const read: string[] = [];
const pages: PageReader = {
  read: async (url) => {
    read.push(url);
    return {
      ok: true,
      page: {
        url,
        title: `Page ${new URL(url).hostname}`,
        text: `Heat pumps cost less to run. Gas boilers are cheaper to install.`,
      },
    };
  },
};

async function backend(script: (input: string) => GeminiScript, env: Record<string, string> = {}) {
  fake = await fakeInteractionsApi((b) => script(b.input), undefined, {
    planHangs: env.PLAN_HANGS === 'true',
  });
  const llm = new ScriptedLlm([]);
  const engine = { llm, prompts, countTokens, clock: systemClock, logger: silentLogger, pageReader: pages };
  const settings = testSettings({ timeBudgetMs: Number(env.TIME_BUDGET_MS ?? 600_000) });
  const research = geminiDeepResearch.build(
    {
      engine: async () => engine,
      settings,
      logger: silentLogger,
      shared: { maxRetries: 3 },
      models: new ModelLifecycle([]),
    },
    geminiDeepResearch.read({
      GEMINI_API_KEY: GEMINI_KEY,
      GEMINI_BASE_URL: fake.baseUrl,
      GEMINI_AGENT: env.GEMINI_AGENT ?? 'deep-research-preview-04-2026',
      GEMINI_POLL_SECONDS: 0.02,
    }),
  );
  return { research, llm, fake: fake! };
}

async function run(
  research: ResearchBackend,
  checkpoint: Checkpoint,
  options: { signal?: AbortSignal; handedBack?: () => boolean } = {},
) {
  const events: ResearchEvent[] = [];
  const saved: SessionState[] = [];
  const outcome = await research.run({
    checkpoint,
    emit: (e) => events.push(e),
    saveCheckpoint: async (c) => void saved.push(structuredClone(c as SessionState)),
    signal: options.signal ?? new AbortController().signal,
    handedBack: options.handedBack,
    logger: silentLogger,
  });
  return { outcome, events, saved };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};
const REPORT = 'Heat pumps cost less to run. {{https://costs.example/page|costs}}';

describe('the Gemini Deep Research backend', () => {
  it('re-attaches to its running interaction when a handed-back session resumes: no second create, nothing cancelled', async () => {
    let release = false;
    const { research, fake } = await backend(() => ({
      get hang() {
        return !release;
      },
      report: REPORT,
    }));
    const drain = new AbortController();
    const first = run(research, research.begin('g-1', { question: 'Q?', skipClarification: true }), {
      signal: drain.signal,
      handedBack: () => true,
    });
    await until(() => fake.calls.gets.length > 1);
    drain.abort();
    const { saved } = await first.catch(() => ({ saved: [] as SessionState[] }));
    expect(fake.calls.cancels).toEqual([]);
    const last = saved.at(-1)!;
    expect(last.backendState).toMatchObject({ research: { status: 'running', id: fake.calls.gets[0] } });
    release = true;
    const { outcome } = await run(research, last);
    expect(outcome.kind).toBe('done');
    expect(fake.calls.creates).toHaveLength(1);
    if (outcome.kind === 'done')
      expect(outcome.report.sources.map((s) => s.url)).toEqual(['https://costs.example/page']);
  });

  it('does not send again a request whose create was interrupted: one sentence says why', async () => {
    const { research, fake } = await backend(() => ({ report: REPORT }));
    const begun = research.begin('g-2', { question: 'Q?', skipClarification: true }) as SessionState;
    const interrupted = {
      ...begun,
      phase: 'research',
      startedAt: Date.now(),
      backendState: { research: { status: 'creating' } },
    };
    await expect(run(research, interrupted as Checkpoint)).rejects.toThrow(
      'it was not sent again so it is not paid for twice',
    );
    expect(fake.calls.creates).toEqual([]);
  });

  it('[Research more] continues the finished research’s conversation, sources keeping their numbers', async () => {
    const { research, fake } = await backend((input) => ({
      report: input.startsWith('Research further')
        ? `Gas boilers are cheaper to install. {{https://install.example/page|install}} ${REPORT}`
        : REPORT,
    }));
    const first = await run(research, research.begin('g-3', { question: 'Q?', skipClarification: true }));
    expect(first.outcome.kind).toBe('done');
    if (first.outcome.kind !== 'done') return;
    const next = research.continueFrom(first.outcome.checkpoint, 'g-4', first.outcome.report);
    expect(research.view(next)).toMatchObject({ reportVersion: 2, phase: 'research' });
    const second = await run(research, next);
    expect(second.outcome.kind).toBe('done');
    if (second.outcome.kind !== 'done') return;
    const [, deeper] = fake.calls.creates;
    expect(deeper!.previous_interaction_id).toBe(fake.calls.gets[0]);
    expect(deeper!.input).toMatch(/^Research further than your previous report/);
    expect(second.outcome.report.sources.map((s) => [s.n, s.url])).toEqual([
      [1, 'https://costs.example/page'],
      [2, 'https://install.example/page'],
    ]);
  });

  it('shows thought summaries, searches and the pages read on its one card', async () => {
    const { research } = await backend(() => ({
      polls: 2,
      thoughts: ['**Comparing tariffs**\n\nDetails.', 'Second thought'],
      searches: ['heat pump tariffs'],
      report: REPORT,
    }));
    const { events } = await run(
      research,
      research.begin('g-5', { question: 'Q?', skipClarification: true }),
    );
    const activity = events.flatMap((e) => (e.type === 'agent_activity' ? [e.activity] : []));
    expect(activity).toEqual([
      { kind: 'thinking' },
      { kind: 'thinking', about: 'Comparing tariffs' },
      { kind: 'searching', queries: ['heat pump tariffs'] },
      { kind: 'thinking', about: 'Second thought' },
    ]);
    expect(events.find((e) => e.type === 'agent_read')).toMatchObject({
      pages: [{ url: 'https://costs.example/page', title: 'Page costs.example' }],
    });
  });

  it('rides out answers that are not interactions for a while', async () => {
    const { research, fake } = await backend(() => ({ polls: 1, report: REPORT }));
    fake.garbleGets(2);
    const { outcome } = await run(
      research,
      research.begin('g-6', { question: 'Q?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    // Two garbled answers, then the real ones: read again, not taken for an ended research.
    expect(fake.calls.gets.length).toBeGreaterThanOrEqual(4);
  });

  it('names an agent the API does not offer, and a failed interaction, each in one sentence', async () => {
    const unknown = await backend(() => ({ report: REPORT }), {
      GEMINI_AGENT: 'deep-research-pro-preview-12-2025',
    });
    const refused = run(
      unknown.research,
      unknown.research.begin('g-7', { question: 'Q?', skipClarification: true }),
    );
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      'set GEMINI_AGENT to deep-research-preview-04-2026 or deep-research-max-preview-04-2026',
    );
    await fake?.close();
    const failing = await backend(() => ({ end: 'failed' }));
    const failed = run(
      failing.research,
      failing.research.begin('g-8', { question: 'Q?', skipClarification: true }),
    );
    await expect(failed).rejects.toBeInstanceOf(ProviderError);
    await expect(failed).rejects.toThrow(
      'Gemini Deep Research did not finish: failed (The agent could not complete the research.).',
    );
  });

  it('reads at most 40 cited pages of a report; the rest stay cited without being fetched', async () => {
    const many = Array.from(
      { length: 45 },
      (_, i) => `Heat pumps cost less to run. {{https://p${i}.example/page|p${i}}}`,
    ).join('\n');
    const { research } = await backend(() => ({ report: many }));
    read.length = 0;
    const { outcome } = await run(
      research,
      research.begin('g-10', { question: 'Q?', skipClarification: true }),
    );
    expect(outcome.kind).toBe('done');
    expect(read).toHaveLength(40);
    if (outcome.kind === 'done') expect(outcome.report.sources).toHaveLength(45);
  });

  it('does not wait past the time budget for a plan that never comes: the planning is cancelled, the reason named', async () => {
    const { research, fake } = await backend(() => ({ report: REPORT }), {
      TIME_BUDGET_MS: '1500',
      PLAN_HANGS: 'true',
    });
    const planning = run(research, research.begin('g-11', { question: 'Q?', planReview: { seconds: 60 } }));
    await expect(planning).rejects.toThrow('had not proposed a plan when the time budget ran out');
    expect(fake.calls.creates).toHaveLength(1);
    expect(fake.calls.cancels).toHaveLength(1);
  });

  it('stops at the time budget: the interaction is cancelled on Google’s side and the reason named', async () => {
    const { research, fake } = await backend(() => ({ hang: true }), { TIME_BUDGET_MS: '1500' });
    const running = run(research, research.begin('g-9', { question: 'Q?', skipClarification: true }));
    await expect(running).rejects.toThrow('had not finished when the time budget ran out');
    expect(fake.calls.cancels).toHaveLength(1);
  });
});
