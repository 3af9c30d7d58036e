import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession } from '../../../src/engine/run-session.js';
import { insertQueued } from '../../../src/sessions/records/insert-session.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import { SessionThread } from '../../../src/slack/thread/session-thread.js';
import type { Database } from '../../../src/store/database.js';
import { fakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../../fakes/fake-searxng-server.js';
import { type FakeSlack, fakeSlackServer, render } from '../../fakes/fake-slack-server.js';
import { RuleLlm } from '../../fakes/rule-llm.js';
import { realPostgres } from '../../helpers/postgres.js';
import { eventually } from '../../helpers/slack-harness.js';
import { BOT_TOKEN } from '../../helpers/slack-requests.js';

const BIN = join(import.meta.dirname, '../../../bin/deep-research.js');

let db: Database;
let slack: FakeSlack;
let closers: (() => Promise<unknown>)[] = [];
const children: ChildProcess[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  db = await realPostgres();
  slack = await fakeSlackServer();
  const model = await fakeOpenAiServer(new RuleLlm({ rounds: 1 }));
  const search = await fakeSearxngServer();
  closers = [() => slack.close(), () => model.close(), () => search.close()];
  env = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: db.url,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: model.baseUrl,
    RESEARCH_MODEL: 'gpt-4.1',
    SEARXNG_URL: search.url,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    LEASE_SECONDS: '5',
    LOG_LEVEL: 'silent',
  };
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const close of closers) await close();
  await db.close();
});

/** `deep-research worker` in its own process: it researches and delivers Slack sessions. */
function startWorker(reportFormat: 'messages' | 'auto'): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: { ...env, REPORT_FORMAT: reportFormat },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

/** A session asked by a mention in `channel`, queued for a worker. */
async function queueMention(id: string, channel: string, ts: string): Promise<void> {
  const thread = new SessionThread({ sessionId: id, channelId: channel, threadTs: ts, mentionTs: ts });
  const question = 'How do tides work?';
  await insertQueued(
    db.pool,
    { id, origin: 'slack', teamId: 'T1', channelId: channel, threadTs: ts, requester: 'UKILL', question },
    newSession(id, { question }),
    { opener: { role: 'mention', ts }, intents: [thread.react('eyes')] },
    24,
  );
}

/**
 * Queues a mention's session, lets a worker run it until `held` (a call Slack
 * takes only once its caller is gone) arrives, kills it, waits until Slack has
 * acted on the call (`landed`), and lets a second worker deliver it.
 */
async function dieWhileCalling(
  channel: string,
  ts: string,
  format: 'messages' | 'auto',
  held: (method: string, args: Record<string, unknown>) => boolean,
  landed: () => boolean,
): Promise<{ id: string; sessions: SessionStore }> {
  const id = randomUUID();
  await queueMention(id, channel, ts);
  const arrived = slack.holdUntilCallerGone(held);
  const first = startWorker(format);
  await arrived;
  first.kill('SIGKILL');
  await once(first, 'exit');
  await eventually(landed, 5000, 'the held call taken');

  const second = startWorker(format);
  const sessions = new SessionStore(db.pool);
  await eventually(async () => (await sessions.get(id))?.status === 'done', 60_000, 'delivered');
  await eventually(() => slack.reactionsOn(channel, ts).join() === 'white_check_mark', 30_000, 'reaction');
  second.kill('SIGTERM');
  await once(second, 'exit');
  return { id, sessions };
}

describe('delivery across a crash', () => {
  it('posts no report part twice and misses none when the process dies with a post in flight that Slack accepts', async () => {
    const ts = '1800000200.000100';
    // Slack takes the post after the process died: the part is in the thread, nobody knows its ts.
    const { id, sessions } = await dieWhileCalling(
      'C7',
      ts,
      'messages',
      (method, args) => method === 'chat.postMessage' && String(args.text).startsWith('Research report'),
      () => slack.calls.some((c) => c.error === 'held'),
    );

    const messages = slack.thread('C7', ts);
    expect(messages.filter((m) => render(m).startsWith('*Report*'))).toHaveLength(1);
    expect(messages.filter((m) => render(m).startsWith('*Sources*'))).toHaveLength(1);
    expect(messages.filter((m) => m.files)).toHaveLength(1);
    expect(slack.reactionsOn('C7', ts)).toEqual(['white_check_mark']);
    // The second process found the part by its metadata instead of posting it again.
    expect(slack.calls.filter((c) => c.method === 'conversations.replies').length).toBeGreaterThanOrEqual(1);
    const report = messages.find((m) => render(m).startsWith('*Report*'))!;
    expect(report.metadata).toEqual({
      event_type: 'deep_research_message',
      event_payload: { session_id: id, key: 'post:report:0' },
    });
    expect((await sessions.slackMessages(id)).get('report:0')?.ts).toBe(report.ts);
  }, 90_000);

  it('shows one canvas and one summary when the process dies with a canvas being made that Slack makes', async () => {
    const ts = '1800000200.000200';
    await dieWhileCalling(
      'C8',
      ts,
      'auto',
      (method) => method === 'canvases.create',
      () => slack.canvases.length === 1,
    );

    // The canvas whose answer was lost is shared with no one: readers see exactly one.
    const shared = slack.canvases.filter((c) => c.readers.channels.length + c.readers.users.length > 0);
    expect(shared).toHaveLength(1);
    expect(shared[0]!.readers.channels).toEqual(['C8']);
    const messages = slack.thread('C8', ts);
    const summaries = messages.filter((m) => render(m).startsWith(':memo: *Report*'));
    expect(summaries).toHaveLength(1);
    expect(render(summaries[0]!)).toContain(`docs/T1/${shared[0]!.id}|Full report>`);
    expect(messages.filter((m) => render(m).startsWith('*Report*'))).toHaveLength(0);
    expect(messages.filter((m) => m.files)).toHaveLength(1);
  }, 90_000);

  it('shows one progress stream when the process dies with a stream being started that Slack starts', async () => {
    const ts = '1800000200.000300';
    const { id, sessions } = await dieWhileCalling(
      'C9',
      ts,
      'auto',
      (method) => method === 'chat.startStream',
      () => slack.thread('C9', ts).some((m) => m.stream),
    );

    // The second process adopted the untagged stream it found in the thread, appended to it and stopped it.
    const streams = slack.thread('C9', ts).filter((m) => m.stream);
    expect(streams).toHaveLength(1);
    expect(streams[0]!.stream!.state).toBe('stopped');
    expect((await sessions.slackMessages(id)).get('progress')).toEqual({
      channelId: 'C9',
      ts: streams[0]!.ts,
      streaming: true,
    });
    expect(
      slack.thread('C9', ts).filter((m) => m.history.some((v) => v.startsWith(':clipboard: *Planning*'))),
    ).toEqual([]);
  }, 90_000);
});
