import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000400.${String(++tsCounter).padStart(6, '0')}`;

/** Asks with a mention in C1 and waits until the session is done; returns the mention's ts. */
async function research(h: SlackHarness, question: string): Promise<string> {
  const app = await h.start();
  const ts = userTs();
  const event = { type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${question}`, ts };
  expect((await signedPost(app.url, eventCallback(event), JSON_TYPE)).status).toBe(200);
  await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
  return ts;
}

describe('live progress as a stream', () => {
  it('shows one task card per agent, with the pages that agent read as its sources, and ends with the headline', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 3, readPages: true }), {}, { localPages: true });
    const ts = await research(h, 'How do tides work?');
    const [stream, ...others] = h.slack.thread('C1', ts).filter((m) => m.stream);
    expect(others).toEqual([]);
    await eventually(() => stream!.stream!.state === 'stopped', 5000, 'stopped');
    const tasks = stream!.stream!.tasks;
    expect(tasks.map((t) => [t.title, t.status, t.output])).toEqual([
      ['Topic 1', 'complete', '1 source, 1 page read'],
      ['Topic 2', 'complete', '1 source, 1 page read'],
      ['Topic 3', 'complete', '1 source, 1 page read'],
    ]);
    // Each card's sources are exactly the page its own agent opened.
    const opened = h.model.requests
      .flatMap((r) => r.messages ?? [])
      .flatMap((m) => m.tool_calls ?? [])
      .filter((c) => c.function.name === 'open_url')
      .map((c) => JSON.parse(c.function.arguments).urls[0] as string);
    expect(new Set(opened).size).toBe(3);
    tasks.forEach((task, i) => {
      expect(task.sources).toEqual([
        {
          type: 'url',
          url: expect.stringMatching(new RegExp(`/topic-${i + 1}$`)),
          text: `Topic ${i + 1}`,
        },
      ]);
      expect(opened).toContain(task.sources![0]!.url);
    });
    expect(stream!.stream!.markdown).toMatch(/^\*\*Research complete\*\* · \d+s\n\nFinding from /);

    // Appends are buffered: never two for this stream closer together than the interval (150 ms here).
    const appends = h.slack.calls.filter((c) => c.method === 'chat.appendStream' && c.args.ts === stream!.ts);
    expect(appends.length).toBeGreaterThan(0);
    const gaps = appends.slice(1).map((c, i) => c.at - appends[i]!.at);
    expect(gaps.every((g) => g >= 140)).toBe(true);
    expect(h.slack.calls.filter((c) => c.error)).toEqual([]);
  }, 60_000);

  it('falls back to the edited progress message when Slack will not start a stream', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 2 }));
    h.slack.fault({ methods: ['chat.startStream'], error: 'channel_type_not_supported', forMs: 600_000 });
    const ts = await research(h, 'How do tides work?');
    const thread = h.slack.thread('C1', ts);
    expect(thread.some((m) => m.stream)).toBe(false);
    const progress = thread.find((m) => m.history.some((v) => v.startsWith(':clipboard: *Planning*')))!;
    await eventually(
      () => /^:white_check_mark: \*Research complete\* · 2 agents · 2 sources/.test(render(progress)),
      5000,
      'final progress',
    );
    expect(progress.history.length).toBeGreaterThan(1);
    const plan = thread.find((m) => render(m).startsWith(':clipboard: *Research plan*'))!;
    await eventually(() => !plan.blocks.some((b) => b.type === 'actions'), 5000, 'plan without Cancel');
  }, 60_000);

  it('does not stream with REPORT_FORMAT=messages', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { REPORT_FORMAT: 'messages' });
    const ts = await research(h, 'How do tides work?');
    expect(h.slack.calls.some((c) => c.method === 'chat.startStream')).toBe(false);
    expect(
      h.slack.thread('C1', ts).some((m) => render(m).startsWith(':white_check_mark: *Research complete*')),
    ).toBe(true);
  }, 60_000);
});
