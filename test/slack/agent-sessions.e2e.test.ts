import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, FORM, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800002400.${String(++tsCounter).padStart(6, '0')}`;

/** A new install's plan review: the plan waits PLAN_REVIEW_SECONDS (60) for [Start now]. */
const DEFAULT_REVIEW = { PLAN_REVIEW_SECONDS: '60' };

async function mention(url: string, question: string): Promise<string> {
  const ts = userTs();
  const event = { type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${question}`, ts };
  expect((await signedPost(url, eventCallback(event), JSON_TYPE)).status).toBe(200);
  return ts;
}

/** Slack's `agent_session_stopped` envelope: `user` pressed Stop on the thread's agent session. */
function stopped(user: string, threadTs: string, streams: string[]): string {
  return eventCallback({
    type: 'agent_session_stopped',
    channel: 'C1',
    user,
    thread_ts: threadTs,
    streaming_message_ts: streams,
    event_ts: userTs(),
  });
}

const buttons = (m: FakeMessage) =>
  (m.blocks.find((b) => b.type === 'actions')?.elements ?? []).map((e) => e.action_id);

describe('agent sessions', () => {
  it('go processing → active while the plan waits for review → processing → closed once the report is in the thread', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), DEFAULT_REVIEW);
    const app = await h.start();
    const ts = await mention(app.url, 'How do tides work?');
    const plan = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => buttons(m).includes('research_start_now')),
      20_000,
      'the plan under review',
    );
    await eventually(() => h!.slack.agents.changes('C1', ts).at(-1) === 'active', 10_000, 'active');
    expect(h.slack.agents.sessions.get(`C1:${ts}`)).toMatchObject({
      title: 'How do tides work?',
      initiator: 'UANN',
      renames: [],
    });

    await signedPost(
      app.url,
      buttonClick(
        'research_start_now',
        String(plan.blocks.at(-1)!.elements![0]!.value),
        'UANN',
        { channel: 'C1', ts: plan.ts, threadTs: ts },
        h.slack.responseUrl('start'),
      ),
      FORM,
    );
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'done', 30_000, 'report');
    await eventually(() => h!.slack.agents.changes('C1', ts).at(-1) === 'closed', 10_000, 'closed');
    expect(h.slack.agents.changes('C1', ts)).toEqual(['processing', 'active', 'processing', 'closed']);
    // Closed only once everything the reader gets is in the thread.
    const closedAt = h.slack.calls.findIndex(
      (c) => c.method === 'agents.sessions.setStatus' && c.args.status === 'closed',
    );
    const lastWrite = h.slack.calls.findLastIndex(
      (c) =>
        ['chat.postMessage', 'files.completeUploadExternal', 'canvases.access.set'].includes(c.method) &&
        c.error === undefined,
    );
    expect(closedAt).toBeGreaterThan(lastWrite);
    expect(h.slack.thread('C1', ts).some((m) => m.files)).toBe(true);
  }, 90_000);

  it("cancels on Stop from the requester, like [Cancel], and not on someone else's", async () => {
    h = await slackHarness(new RuleLlm({ rounds: 6, delayMs: 150 }));
    const app = await h.start();
    const ts = await mention(app.url, 'Map the battery supply chain');
    const progress = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => m.stream?.tasks.some((t) => t.status === 'complete')),
      20_000,
      'an agent done',
    );
    expect(h.slack.agents.changes('C1', ts)).toEqual(['processing']);

    // Slack stops the thread's streams itself, whoever pressed Stop; only the requester's Stop cancels.
    await signedPost(app.url, stopped('UBOB', ts, h.slack.stopByUser('C1', ts)), JSON_TYPE);
    const refusal = await eventually(
      () => h!.slack.calls.find((c) => c.method === 'chat.postEphemeral' && c.args.user === 'UBOB'),
      10_000,
      'the refusal',
    );
    expect(refusal.args).toMatchObject({
      channel: 'C1',
      thread_ts: ts,
      text: 'Only <@UANN> (who asked) or a workspace admin can cancel this research.',
    });
    expect((await storedSessions(h))[0]!.status).toBe('running');
    // The stopped stream is edited from then on.
    const edits = progress.history.length;
    await eventually(() => progress.history.length > edits, 20_000, 'the progress edited');

    const pressed = Date.now();
    await signedPost(app.url, stopped('UANN', ts, h.slack.stopByUser('C1', ts)), JSON_TYPE);
    await eventually(async () => (await storedSessions(h!))[0]!.status === 'cancelled', 10_000, 'cancelled');
    const latencyMs = Date.now() - pressed;
    console.log(`Stop to cancelled: ${latencyMs} ms`);
    await eventually(() => h!.slack.agents.changes('C1', ts).at(-1) === 'closed', 10_000, 'closed');
    expect(h.slack.agents.changes('C1', ts)).toEqual(['processing', 'closed']);
    expect(
      h.slack
        .thread('C1', ts)
        .map(render)
        .some((t) => t.startsWith(':no_entry: Research cancelled by <@UANN>.')),
    ).toBe(true);
    expect(render(progress)).toMatch(/cancelled/i);
    // Slack's own Stop is the only one: no refusal, no error for the requester.
    expect(h.slack.calls.filter((c) => c.method === 'chat.postEphemeral' && c.args.user === 'UANN')).toEqual([
      expect.objectContaining({
        args: expect.objectContaining({
          text: 'Stopping the research; what was found so far will be posted in the thread.',
        }),
      }),
    ]);
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  }, 90_000);

  it('falls back quietly where Slack refuses agent sessions: the same thread, one warning', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), DEFAULT_REVIEW);
    // An install whose app is not declared an agent (or a workspace without agent messaging).
    h.slack.fault({
      methods: ['agents.sessions.setStatus', 'agents.sessions.rename'],
      error: 'not_allowed_token_type',
      forMs: 600_000,
    });
    const app = await h.start();
    const first = await mention(app.url, 'How do tides work?');
    const plan = await eventually(
      () => h!.slack.thread('C1', first).find((m) => buttons(m).includes('research_start_now')),
      20_000,
      'the plan under review',
    );
    await signedPost(
      app.url,
      buttonClick(
        'research_start_now',
        String(plan.blocks.at(-1)!.elements![0]!.value),
        'UANN',
        { channel: 'C1', ts: plan.ts, threadTs: first },
        h.slack.responseUrl('start'),
      ),
      FORM,
    );
    // A second session in review meanwhile: its refused writes add no warning.
    await mention(app.url, 'What is tidal power?');
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 1,
      30_000,
      'the first report',
    );
    const texts = h.slack.thread('C1', first).map(render);
    expect(texts.some((t) => t.includes('Full report'))).toBe(true);
    expect(texts.some((t) => /fail|error|could not/i.test(t))).toBe(false);
    // The final marks follow the report (they do not hold up `done`).
    await eventually(
      () => h!.slack.reactionsOn('C1', first).join() === 'white_check_mark',
      10_000,
      'marked done',
    );
    expect(h.slack.agents.sessions.size).toBe(0);
    expect(h.slack.calls.filter((c) => c.method === 'agents.sessions.setStatus').length).toBeGreaterThan(3);
    // One warning for the whole process, not one per write or per session; no error.
    const warnings = h.logs.filter((l) => /agent session status/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', fields: { code: 'not_allowed_token_type' } });
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);
  }, 90_000);
});
