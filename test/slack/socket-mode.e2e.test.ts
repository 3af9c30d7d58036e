import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000900.${String(++tsCounter).padStart(6, '0')}`;
const buttons = (m: FakeMessage) => m.blocks.find((b) => b.type === 'actions')?.elements ?? [];

// The same bodies Slack would POST over HTTP, as Socket Mode envelopes carry them.
const commandPayload = (text: string, user: string, responseUrl: string) =>
  Object.fromEntries(new URLSearchParams(slashCommand(text, user, responseUrl)));
const eventPayload = (event: Record<string, unknown>) => JSON.parse(eventCallback(event)) as object;
const clickPayload = (...args: Parameters<typeof buttonClick>) =>
  JSON.parse(new URLSearchParams(buttonClick(...args)).get('payload')!) as object;

describe('Socket Mode', () => {
  it('runs a research from /research, a thread reply, a button and a mention, acking each envelope, across a dropped socket', async () => {
    h = await slackHarness(
      new RuleLlm({ rounds: 1, questions: '1. Which region?' }),
      { PLAN_REVIEW_SECONDS: '600' },
      { socketMode: true },
    );
    const socket = h.socket!;
    const app = await h.start();
    // Operators' routes are served on PORT in Socket Mode too.
    const health = await fetch(app.url.replace('/slack/events', '/healthz'));
    expect(health.status).toBe(200);
    expect(socket.connections).toBe(1);

    const command = await socket.deliver(
      'slash_commands',
      commandPayload('How do heat pumps compare with gas boilers?', 'UANN', h.slack.responseUrl('cmd')),
    );
    expect(command.ms).toBeLessThan(3000);
    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      10_000,
      'root',
    );
    expect(render(root)).toContain('> How do heat pumps compare with gas boilers?');
    await eventually(
      () => h!.slack.thread('C1', root.ts).some((m) => render(m).includes('Which region?')),
      10_000,
      'questions',
    );

    // The connection drops without a close frame: the app asks for a new URL and reconnects.
    socket.drop();
    await eventually(() => socket.connections === 2, 30_000, 'reconnected');
    expect(h.slack.calls.filter((c) => c.method === 'apps.connections.open')).toHaveLength(2);

    const reply = await socket.deliver(
      'events_api',
      eventPayload({
        type: 'message',
        channel: 'C1',
        channel_type: 'channel',
        user: 'UANN',
        text: 'Europe, 2020 to 2025',
        ts: userTs(),
        thread_ts: root.ts,
      }),
    );
    expect(reply.ms).toBeLessThan(3000);
    const plan = await eventually(
      () =>
        h!.slack
          .thread('C1', root.ts)
          .find((m) => buttons(m).some((b) => b.action_id === 'research_edit_plan')),
      20_000,
      'the plan with [Start now]',
    );
    await socket.deliver(
      'interactive',
      clickPayload(
        'research_start_now',
        String(buttons(plan)[0]!.value),
        'UANN',
        { channel: 'C1', ts: plan.ts, threadTs: root.ts },
        h.slack.responseUrl('start'),
      ),
    );
    await eventually(
      async () => (await storedSessions(h!)).some((s) => s.status === 'done'),
      60_000,
      'research done',
    );
    await eventually(() => h!.slack.canvases.length === 1, 10_000, 'the report canvas');
    expect(h.model.requests.some((r) => JSON.stringify(r.messages).includes('Europe, 2020 to 2025'))).toBe(
      true,
    );

    // A mention starts a second research in its own thread.
    const ts = userTs();
    await socket.deliver(
      'events_api',
      eventPayload({
        type: 'app_mention',
        channel: 'C1',
        user: 'UBOB',
        text: '<@UBOT> How do tides work?',
        ts,
      }),
    );
    await eventually(
      () => h!.slack.thread('C1', ts).some((m) => render(m).includes('Which region?')),
      10_000,
      'questions under the mention',
    );
    expect(await storedSessions(h)).toHaveLength(2);
    // Every envelope was acknowledged, each once, and nothing unknown was acked.
    expect(socket.acks).toHaveLength(4);
    expect(new Set(socket.acks.map((a) => a.envelope_id)).size).toBe(4);
    expect(socket.unknownAcks).toEqual([]);
  }, 120_000);
});
