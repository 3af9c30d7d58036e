import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessage, render } from '../../fakes/fake-slack-server.js';
import { RuleLlm } from '../../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** These tests break the split report's posts; the canvas path is tested in the Slack-native tests. */
const MESSAGES = { REPORT_FORMAT: 'messages' };

let tsCounter = 0;
const userTs = () => `1800000100.${String(++tsCounter).padStart(6, '0')}`;

/** Asks with a mention in `channel`; returns the mention's ts (its thread). */
async function mention(url: string, user: string, question: string, channel = 'C1'): Promise<string> {
  const ts = userTs();
  const event = { type: 'app_mention', channel, user, text: `<@UBOT> ${question}`, ts };
  const response = await signedPost(url, eventCallback(event), JSON_TYPE);
  expect(response.status).toBe(200);
  return ts;
}

/** From the first report post on, for `forMs`, posts fail as `error` says. */
function failReportPosts(h: SlackHarness, error: string, forMs: number) {
  h.slack.fault({
    methods: ['chat.postMessage'],
    error,
    forMs,
    from: (method, args) => method === 'chat.postMessage' && String(args.text).startsWith('Research report'),
  });
}

const isReport = (m: FakeMessage) => render(m).startsWith('*Report*');
const isSources = (m: FakeMessage) => render(m).startsWith('*Sources*');

/** What a reader of one thread sees: exactly one of everything, and the outcome marked. */
async function expectComplete(h: SlackHarness, channel: string, ts: string) {
  const thread = h.slack.thread(channel, ts);
  const texts = thread.map(render);
  expect(texts.filter((t) => t.startsWith(':clipboard: *Research plan*'))).toHaveLength(1);
  expect(thread.filter(isReport)).toHaveLength(1);
  expect(thread.filter(isSources)).toHaveLength(1);
  expect(thread.filter((m) => m.files)).toHaveLength(1);
  const paragraphs = texts.flatMap((t) => t.split('\n')).filter((l) => l.startsWith('Finding from'));
  expect(new Set(paragraphs).size).toBe(paragraphs.length);
  // The final marks follow the report (they do not hold up `done`).
  await eventually(() => h.slack.reactionsOn(channel, ts).join() === 'white_check_mark', 120_000, 'reaction');
  // "Done" is shown only after every part, the sources and the file reached the thread.
  const done = h.slack.calls.find(
    (c) => c.method === 'reactions.add' && c.args.timestamp === ts && c.args.name === 'white_check_mark',
  )!;
  const last = Math.max(
    ...thread.filter((m) => m.files || isReport(m) || isSources(m)).map((m) => Number(m.ts)),
  );
  expect(done.at / 1000).toBeGreaterThanOrEqual(last);
}

describe('durable delivery', () => {
  it('delivers 20 sessions finishing together in one channel, completely, once each, with no 429 of our making', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), {
      ...MESSAGES,
      MAX_CONCURRENT_SESSIONS: '20',
      MAX_SESSIONS_PER_USER: '20',
    });
    const app = await h.start();
    const threads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => mention(app.url, `U${i}`, `Question number ${i + 1} about tides`)),
    );
    const statuses = async () => (await storedSessions(h!)).map((s) => s.status);
    await eventually(
      async () => (await statuses()).filter((s) => s === 'done').length === 20,
      200_000,
      'all 20 delivered',
    );
    for (const ts of threads) await expectComplete(h, 'C1', ts);
    // Slack's per-channel posting limit (about one a second, short bursts) was never exceeded.
    expect(h.slack.stats.postLimited).toBe(0);
    expect(h.slack.stats.updateLimited).toBe(0);
  }, 240_000);

  it('delivers the report after 15 s of 5xx, network errors and a 429 storm while it is posted, and by DM when the channel is archived', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), MESSAGES);
    const app = await h.start();
    const reportPost = (channel: string) => (method: string, args: Record<string, unknown>) =>
      method === 'chat.postMessage' &&
      args.channel === channel &&
      String(args.text).startsWith('Research report');
    const faults = { C1: 'http500', C2: 'network', C3: 'ratelimited', C4: 'is_archived' } as const;
    for (const [channel, error] of Object.entries(faults)) {
      h.slack.fault({
        methods: ['chat.postMessage'],
        error,
        forMs: 15_000,
        channel,
        from: reportPost(channel),
      });
    }
    const asked: Record<string, string> = {};
    for (const [i, channel] of Object.keys(faults).entries()) {
      asked[channel] = await mention(app.url, `UF${i}`, `Faulty question in ${channel}`, channel);
    }
    await eventually(
      // All four recorded (a mention is acknowledged before its session is), and each delivered.
      async () => {
        const sessions = await storedSessions(h!);
        return sessions.length === 4 && sessions.every((s) => s.status === 'done');
      },
      90_000,
      'every session delivered',
    );
    for (const channel of ['C1', 'C2', 'C3']) {
      await expectComplete(h, channel, asked[channel]!);
      // The faults really happened during report posting.
      expect(
        h.slack.calls.some(
          (c) => c.args.channel === channel && c.error === `fault:${faults[channel as 'C1']}`,
        ),
      ).toBe(true);
    }
    // The archived channel: the requester has it all by DM, with one sentence saying why.
    const dm = h.slack.messages.filter((m) => m.channel === 'DUF3');
    expect(render(dm[0]!)).toMatch(
      /^:warning: I could not post your research in <#C4> because the channel is archived, so here it is\. \(session [0-9a-f-]{36}\)$/,
    );
    expect(dm.filter(isReport)).toHaveLength(1);
    expect(dm.filter(isSources)).toHaveLength(1);
    expect(h.slack.files.filter((f) => f.channel === 'DUF3')).toHaveLength(1);
    expect(h.slack.thread('C4', asked.C4!).filter(isReport)).toHaveLength(0);
    const archived = (await storedSessions(h)).find((s) => s.question.includes('C4'))!;
    expect(archived.delivery_note).toBe(
      'sent to the requester by direct message: the channel is archived (is_archived)',
    );
  }, 120_000);

  it('keeps everything pending while Slack refuses the token, says so on /healthz, and delivers once it is accepted again', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), MESSAGES);
    const app = await h.start();
    h.slack.fault({
      methods: '*',
      error: 'invalid_auth',
      forMs: 15_000,
      from: (method, args) =>
        method === 'chat.postMessage' && String(args.text).startsWith('Research report'),
    });
    const ts = await mention(app.url, 'UAUTH', 'What do bees see?');
    const health = app.url.replace('/slack/events', '/healthz');
    const degraded = await eventually(
      async () => {
        const body = (await (await fetch(health)).json()) as {
          status: string;
          slack?: string;
          delivery: { pending: number };
        };
        return body.status === 'degraded' ? body : null;
      },
      20_000,
      'degraded health',
    );
    expect(degraded.slack).toBe('Slack refuses our writes: invalid_auth');
    expect(degraded.delivery.pending).toBeGreaterThan(0);
    expect((await storedSessions(h))[0]!.status).toBe('delivering');
    await eventually(async () => (await storedSessions(h!))[0]!.status === 'done', 60_000, 'delivered');
    await expectComplete(h, 'C1', ts);
    expect(((await (await fetch(health)).json()) as { status: string }).status).toBe('ok');
  }, 90_000);

  it('completes a delivery that a stopped process left pending', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), MESSAGES);
    const first = await h.start();
    failReportPosts(h, 'http500', 600_000);
    const ts = await mention(first.url, 'UPEND', 'Why is the sky blue?');
    await eventually(
      () => h!.slack.calls.some((c) => c.error === 'fault:http500'),
      20_000,
      'report posting failing',
    );
    await first.stop();
    expect((await storedSessions(h))[0]!.status).toBe('delivering');
    h.slack.clearFaults();
    await h.start();
    await eventually(async () => (await storedSessions(h!))[0]!.status === 'done', 30_000, 'delivered later');
    await expectComplete(h, 'C1', ts);
  }, 60_000);

  it('marks a session undeliverable past the deadline, with the reason, and keeps its report', async () => {
    // 0.002 hours: about seven seconds.
    h = await slackHarness(new RuleLlm({ rounds: 1 }), {
      ...MESSAGES,
      DELIVERY_DEADLINE_HOURS: '0.002',
    });
    const app = await h.start();
    failReportPosts(h, 'http500', 600_000);
    await mention(app.url, 'ULATE', 'How do magnets work?');
    const row = await eventually(
      async () => (await storedSessions(h!)).find((s) => s.status === 'undeliverable'),
      40_000,
      'undeliverable',
    );
    expect(row.delivery_note).toBe(
      'Slack did not take the report: not delivered within DELIVERY_DEADLINE_HOURS (last error: slack_webapi_http_error)',
    );
    expect(row.has_report).toBe(true);
  }, 60_000);
});
