import { afterEach, describe, expect, it } from 'vitest';
import { fakeInteractionsApi, GEMINI_KEY, type GeminiScript } from '../fakes/fake-interactions-api.js';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { pageServer, send } from '../helpers/page-server.js';
import {
  eventually,
  type SlackHarness,
  sessionsAtRest,
  slackHarness,
  storedSessions,
} from '../helpers/slack-harness.js';
import {
  buttonClick,
  eventCallback,
  FORM,
  JSON_TYPE,
  signedPost,
  viewSubmission,
} from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
let gemini: Awaited<ReturnType<typeof fakeInteractionsApi>> | undefined;
let pages: Awaited<ReturnType<typeof pageServer>> | undefined;
afterEach(async () => {
  await h?.close();
  await gemini?.close();
  await pages?.close();
  h = undefined;
  gemini = undefined;
  pages = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000950.${String(++tsCounter).padStart(6, '0')}`;
const buttons = (m: FakeMessage) => m.blocks.find((b) => b.type === 'actions')?.elements ?? [];

async function start(script: (pageUrl: (path: string) => string) => GeminiScript) {
  pages = await pageServer({
    '/costs': send(
      'text/html',
      '<html><head><title>Running costs 2025</title></head><body><p>Heat pumps cost less to run than gas boilers in 2025.</p></body></html>',
    ),
  });
  const url = pages.url;
  gemini = await fakeInteractionsApi(() => script(url));
  // No model call is expected in Slack either: the scripted model fails on any.
  h = await slackHarness(new ScriptedLlm([]), {
    RESEARCH_BACKEND: 'gemini-deep-research',
    GEMINI_API_KEY: GEMINI_KEY,
    GEMINI_BASE_URL: gemini.baseUrl,
    GEMINI_POLL_SECONDS: '0.05',
    ALLOW_PRIVATE_URLS: 'true',
    // A new install's plan review wait (the harness turns it off for other tests).
    PLAN_REVIEW_SECONDS: '60',
  });
  const app = await h.start();
  const ts = userTs();
  await signedPost(
    app.url,
    eventCallback({
      type: 'app_mention',
      channel: 'C1',
      user: 'UANN',
      text: '<@UBOT> Heat pumps or gas boilers?',
      ts,
    }),
    JSON_TYPE,
  );
  const plan = await eventually(
    () => h!.slack.thread('C1', ts).find((m) => render(m).startsWith(':clipboard:')),
    20_000,
    'the plan',
  );
  const click = (action: string, on: FakeMessage, id: string) =>
    signedPost(
      app.url,
      buttonClick(
        action,
        String(buttons(on).find((b) => b.action_id === action)!.value),
        'UANN',
        { channel: 'C1', ts: on.ts, threadTs: ts },
        h!.slack.responseUrl(id),
      ),
      FORM,
    );
  return { ts, plan, click, gemini: gemini!, h: h!, url, app };
}

describe('the Gemini Deep Research backend in Slack', () => {
  it('shows the agent’s plan for review, approves it on Start, shows its progress on a task card and delivers its report citing the real page', async () => {
    const { ts, plan, click, gemini, h, url } = await start((page) => ({
      polls: 2,
      thoughts: ['**Comparing running costs**', '**Checking the sources**'],
      searches: ['heat pump running costs 2025'],
      report: `# Heat pumps or gas\n\nHeat pumps cost less to run than gas boilers in 2025. {{${page('/costs')}|costs}}\n`,
      usage: { input: 300_000, output: 12_000, thought: 6_000, cached: 0, searches: 12 },
    }));
    // The plan is the agent's own (collaborative planning); nothing researches before Start.
    expect(render(plan)).toContain('1. Find the running costs of both.');
    expect(gemini.calls.creates).toHaveLength(1);
    expect(gemini.calls.creates[0]!.agent_config?.collaborative_planning).toBe(true);
    await click('research_start_now', plan, 'start');
    await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'done');

    const research = gemini.calls.creates[1]!;
    expect(research.previous_interaction_id).toMatch(/^v1_/);
    expect(research.agent_config?.collaborative_planning).toBe(false);
    const stream = h.slack.thread('C1', ts).find((m) => m.stream)!;
    await eventually(() => stream.stream!.state === 'stopped', 5000, 'stopped');
    expect(
      stream.stream!.tasks.map((card) => [card.title, card.status, card.sources?.map((s) => s.url)]),
    ).toEqual([['Heat pumps or gas boilers?', 'complete', [url('/costs')]]]);
    const [canvas] = h.slack.canvases;
    expect(canvas!.markdown).toContain(
      `Heat pumps cost less to run than gas boilers in 2025. [[1](${url('/costs')})]`,
    );
    expect(canvas!.markdown).not.toContain('grounding-api-redirect');
    expect(canvas!.markdown).toMatch(/12 hosted web searches · .* · ~\$\d+\.\d\d · session /);
    expect((await sessionsAtRest(h))[0]!.status).toBe('done');
  }, 90_000);

  it('an edited plan is what the agent is told to carry out', async () => {
    const { ts, plan, click, gemini, h, app } = await start((page) => ({
      report: `Heat pumps cost less to run than gas boilers in 2025. {{${page('/costs')}|costs}}`,
    }));
    await click('research_edit_plan', plan, 'edit');
    const opened = await eventually(() => h.slack.views[0], 10_000, 'the editor');
    expect(JSON.stringify(opened.view)).toContain('Find the running costs of both.');
    const sessionId = String(buttons(plan).find((b) => b.action_id === 'research_edit_plan')!.value);
    const saved = await signedPost(
      app.url,
      viewSubmission('research_plan_edit', sessionId, 'UANN', {
        block: 'plan',
        action: 'plan',
        value: '1. Only running costs in the UK',
      }),
      FORM,
    );
    expect(saved.status).toBe(200);
    await click('research_start_now', plan, 'start');
    await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'done');
    expect(gemini.calls.creates[1]!.input).toBe(
      'Carry out this plan instead of the one you proposed, then write the full report with citations:\n\n1. Only running costs in the UK',
    );
  }, 90_000);

  it('on cancel cancels the interaction on Google’s side and says so in the thread', async () => {
    const { ts, plan, click, gemini, h } = await start(() => ({ hang: true }));
    await click('research_start_now', plan, 'start');
    await eventually(
      () => gemini.calls.creates.length === 2 && gemini.calls.gets.length > 2,
      20_000,
      'running',
    );
    await click('research_cancel', plan, 'cancel');
    await eventually(
      () =>
        h.slack
          .thread('C1', ts)
          .some((m) => render(m).startsWith(':no_entry: Research cancelled by <@UANN>')),
      20_000,
      'cancelled in the thread',
    );
    expect(gemini.calls.cancels).toHaveLength(1);
    expect((await storedSessions(h))[0]!.status).toBe('cancelled');
  }, 60_000);
});
