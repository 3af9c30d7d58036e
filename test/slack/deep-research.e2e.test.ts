import { afterEach, describe, expect, it } from 'vitest';
import { fakeResponsesApi, type HostedScript } from '../fakes/fake-responses-api.js';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { graph, TaskGraphLlm } from '../fakes/task-graph-llm.js';
import {
  eventually,
  type SlackHarness,
  sessionsAtRest,
  slackHarness,
  storedSessions,
} from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, FORM, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
let fake: Awaited<ReturnType<typeof fakeResponsesApi>> | undefined;
afterEach(async () => {
  await h?.close();
  await fake?.close();
  h = undefined;
  fake = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000900.${String(++tsCounter).padStart(6, '0')}`;
const buttons = (m: FakeMessage) => m.blocks.find((b) => b.type === 'actions')?.elements ?? [];
const PLAN = graph([
  ['costs', 3],
  ['grants', 2],
  ['compare', 1, ['costs']],
]);

async function start(script: (task: string) => HostedScript, env: Record<string, string> = {}) {
  fake = await fakeResponsesApi((body) => script(body.metadata.task_id!));
  h = await slackHarness(new TaskGraphLlm([PLAN]), {
    RESEARCH_BACKEND: 'deep-research-api',
    DEEP_RESEARCH_BASE_URL: fake.baseUrl,
    DEEP_RESEARCH_POLL_SECONDS: '0.05',
    ...env,
  });
  const app = await h.start();
  const ts = userTs();
  const event = {
    type: 'app_mention',
    channel: 'C1',
    user: 'UANN',
    text: '<@UBOT> Heat pumps or gas boilers?',
    ts,
  };
  await signedPost(app.url, eventCallback(event), JSON_TYPE);
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
  return { ts, plan, click, fake: fake!, h: h! };
}

describe('the deep-research backend in Slack', () => {
  it('reviews the task plan, runs dependent tasks after what they need, shows task cards and delivers a cited, costed report', async () => {
    const { ts, plan, click, fake, h } = await start(
      (task) => ({
        polls: 2,
        searches: [`${task} 2025`],
        answer: `Finding about ${task} {{https://${task}.example/page|${task} source}}.`,
      }),
      // A new install's plan review wait.
      { PLAN_REVIEW_SECONDS: '60' },
    );
    expect(render(plan)).toContain(
      '1. [costs] What about costs?\n2. [grants] What about grants?\n3. [compare] What about compare? (after costs)',
    );
    // Before any history, the estimate is priced at the hosted model's rates for 2 to MAX_TASKS tasks.
    expect(render(plan)).toContain('Estimate: 3m 00s–1h 00m · $1.80–$24.60 (rough, from the settings)');
    expect(fake.calls.creates).toEqual([]);
    await click('research_start_now', plan, 'start');
    await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'done');

    // compare was created only after costs had ended.
    const t = fake.calls.timeline;
    expect(t.indexOf('create:compare')).toBeGreaterThan(t.indexOf('ended:costs'));
    expect(fake.calls.creates.find((c) => c.metadata.task_id === 'compare')!.instructions).toContain(
      'Finding about costs',
    );

    const stream = h.slack.thread('C1', ts).find((m) => m.stream)!;
    await eventually(() => stream.stream!.state === 'stopped', 5000, 'stopped');
    expect(
      stream.stream!.tasks.map((card) => [card.title, card.status, card.sources?.map((s) => s.url)]),
    ).toEqual([
      ['What about costs?', 'complete', ['https://costs.example/page']],
      ['What about grants?', 'complete', ['https://grants.example/page']],
      ['What about compare?', 'complete', ['https://compare.example/page']],
    ]);

    const [canvas] = h.slack.canvases;
    const cited = [...canvas!.markdown.matchAll(/^\d+\. \[[^\]]*\]\((\S+)\)/gm)].map((m) => m[1]).sort();
    expect(cited).toEqual([
      'https://compare.example/page',
      'https://costs.example/page',
      'https://grants.example/page',
    ]);
    expect(canvas!.markdown).toContain('Finding about costs [[1](https://costs.example/page)].');
    expect(canvas!.markdown).toMatch(/3 hosted web searches · .* · ~\$\d+\.\d\d · session /);
    expect((await sessionsAtRest(h))[0]!.status).toBe('done');
  }, 90_000);

  it('on cancel cancels every hosted request in flight, says so in the thread, and creates nothing more', async () => {
    const { ts, plan, click, fake, h } = await start(() => ({ hang: true }));
    await eventually(() => new Set(fake.calls.retrieves).size === 2, 20_000, 'two tasks running');
    await click('research_cancel', plan, 'cancel');
    await eventually(
      () =>
        h.slack
          .thread('C1', ts)
          .some((m) => render(m).startsWith(':no_entry: Research cancelled by <@UANN>')),
      20_000,
      'cancelled in the thread',
    );
    expect(fake.calls.cancels).toHaveLength(2);
    expect(fake.inFlight()).toEqual([]);
    expect(fake.calls.creates).toHaveLength(2);
    expect((await storedSessions(h))[0]!.status).toBe('cancelled');
  }, 60_000);
});
