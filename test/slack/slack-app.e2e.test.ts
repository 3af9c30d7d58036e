import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
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
  slashCommand,
} from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The live progress message, whatever state it shows now. */
const isProgress = (m: FakeMessage) =>
  m.history.some((v) => /^:\w+: \*(Planning|Researching|Writing the report|Research complete)\*/.test(v));

/** The report's summary in the thread (its section is "## Report" in the rule model's reports). */
const SUMMARY = ':memo: *Report*';

/** Every citation link in a canvas points where its numbered source does; the list has `sources` entries. */
function expectCitationsResolve(markdown: string, sources: number) {
  const list = new Map(
    [...markdown.matchAll(/^(\d+)\. \[[^\]]*\]\((\S+)\)/gm)].map((m) => [Number(m[1]), m[2]]),
  );
  expect(list.size).toBe(sources);
  const cited = [...markdown.matchAll(/\[(\d+)\]\((\S+?)\)/g)];
  expect(cited.length).toBeGreaterThan(0);
  for (const [, n, url] of cited) expect(list.get(Number(n))).toBe(url);
}

let tsCounter = 0;
const userTs = () => `1800000000.${String(++tsCounter).padStart(6, '0')}`;

describe('the Slack app, end to end', () => {
  it('stores one feedback vote per reader from the buttons under the summary, the latest click counting', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    await signedPost(app.url, slashCommand('How do tides work?', 'UANN', h.slack.responseUrl('cmd')), FORM);
    const sources = await eventually(
      () => h!.slack.messages.find((m) => m.blocks.some((b) => b.type === 'context_actions')),
      20_000,
      'the summary with feedback buttons',
    );
    expect(render(sources)).toMatch(/^:memo: \*Report\*/);
    const buttons = (
      sources.blocks.find((b) => b.type === 'context_actions')!.elements as unknown as {
        action_id: string;
        positive_button: { value: string };
        negative_button: { value: string };
      }[]
    )[0]!;
    const click = (user: string, value: string) =>
      signedPost(
        app.url,
        buttonClick(
          buttons.action_id,
          value,
          user,
          { channel: sources.channel, ts: sources.ts, threadTs: sources.threadTs },
          h!.slack.responseUrl(`fb-${user}`),
          'feedback_buttons',
        ),
        FORM,
      );
    await click('UANN', buttons.positive_button.value);
    await click('UANN', buttons.negative_button.value);
    await click('UBOB', buttons.positive_button.value);
    await click('UBOB', buttons.positive_button.value);
    // The same button pressed from another conversation counts for nothing, and says so.
    await signedPost(
      app.url,
      buttonClick(
        buttons.action_id,
        buttons.positive_button.value,
        'UEVE',
        { channel: 'C-ELSEWHERE', ts: sources.ts },
        h.slack.responseUrl('fb-UEVE'),
        'feedback_buttons',
      ),
      FORM,
    );
    await eventually(
      () => h!.slack.responses.filter((r) => r.url.includes('/fb-')).length === 5,
      10_000,
      'replies',
    );
    expect(h.slack.responses.find((r) => r.url.endsWith('/fb-UEVE'))!.body.text).toBe(
      'There is no report of that research here to give feedback on.',
    );
    expect(h.slack.responses.find((r) => r.url.endsWith('/fb-UANN'))!.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringMatching(/^Thanks/),
    });
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query(
      'SELECT session_id, user_id, value FROM session_feedback ORDER BY user_id',
    );
    await db.end();
    expect(rows.map(({ user_id, value }) => ({ user_id, value }))).toEqual([
      { user_id: 'UANN', value: 'bad' },
      { user_id: 'UBOB', value: 'good' },
    ]);
    const show = io();
    expect(await runCli(['sessions', 'show', rows[0].session_id], h.env, show)).toBe(0);
    expect(show.err.text).toMatch(/^Feedback: 1 good, 1 not good \(UANN not good .+; UBOB good .+\)$/m);
  }, 60_000);

  it('works in the Messages tab: example questions, a message there researched in its thread, a title', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), {
      SUGGESTED_PROMPTS: 'What is tidal power? | How do tides work?',
    });
    const app = await h.start();
    // Agent messaging: opening the app's Messages tab (app_home_opened, tab "messages") replaces
    // assistant_thread_started.
    const opened = await signedPost(
      app.url,
      eventCallback({
        type: 'app_home_opened',
        user: 'UANN',
        channel: 'D1',
        tab: 'messages',
        event_ts: userTs(),
      }),
      JSON_TYPE,
    );
    expect(opened.status).toBe(200);
    const greeted = await eventually(() => h!.slack.agents.prompts.get('D1'), 10_000, 'prompts');
    expect(greeted).toEqual([
      { title: 'What is tidal power?', message: 'What is tidal power?' },
      { title: 'How do tides work?', message: 'How do tides work?' },
    ]);

    const threadTs = userTs();
    // Slack opened an agent session for the person's message with a title of its own: ours is the question.
    h.slack.agents.open('D1', threadTs, 'Chat from today');
    await signedPost(
      app.url,
      eventCallback({
        type: 'message',
        channel: 'D1',
        channel_type: 'im',
        user: 'UANN',
        text: 'How do tides work?',
        ts: threadTs,
      }),
      JSON_TYPE,
    );
    const file = await eventually(() => h!.slack.files.find((f) => f.title), 20_000, 'report.md');
    expect(file.threadTs).toBe(threadTs);
    expect(h.slack.agents.sessions.get(`D1:${threadTs}`)?.title).toBe('How do tides work?');
    await eventually(() => h!.slack.agents.changes('D1', threadTs).at(-1) === 'closed', 10_000, 'closed');
    expect(h.slack.agents.changes('D1', threadTs)).toEqual(['processing', 'closed']);
    // While research ran, the status line said what was happening.
    expect(h.slack.assistantThread('D1', threadTs)?.statuses).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^is (writing a research plan|searching|writing the report)/),
      ]),
    );
    const thread = h.slack.thread('D1', threadTs).map(render);
    expect(thread.some((t) => t.startsWith(':memo: *Report*'))).toBe(true);
    // In a DM the progress streams without a named recipient (Slack needs one only outside DMs).
    const stream = h.slack.thread('D1', threadTs).find((m) => m.stream)!.stream!;
    await eventually(() => stream.state === 'stopped', 5000, 'stream stopped');
    expect(stream).toMatchObject({ mode: 'plan', recipient: undefined });
    // Slack takes no DM channel for canvas access: the person is given it.
    expect(h.slack.canvases.map((c) => c.readers)).toEqual([{ channels: [], users: ['UANN'] }]);
    expect((await storedSessions(h)).map((s) => s.question)).toEqual(['How do tides work?']);
  }, 60_000);

  it('finishes what it started for a command acknowledged just before shut-down', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    const rootArrived = h.slack.answerLate('chat.postMessage', 1500);
    const ack = await signedPost(
      app.url,
      slashCommand('How do tides work?', 'UANN', h.slack.responseUrl('c')),
      FORM,
    );
    expect(ack.status).toBe(200);
    await rootArrived;
    // Shut down while the command's root message is still being posted: it must still be recorded.
    await app.stop();
    expect((await storedSessions(h)).map((s) => s.question)).toEqual(['How do tides work?']);
  }, 60_000);

  it('runs /research with a clarification answered in the thread by the requester', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 2, questions: '1. Which region?\n2. Which years?' }));
    const app = await h.start();
    const ack = await signedPost(
      app.url,
      slashCommand('How do heat pumps compare with gas boilers?', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    expect(ack.status).toBe(200);

    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    expect(render(root)).toContain('*Deep research* requested by <@UANN>');
    expect(render(root)).toContain('> How do heat pumps compare with gas boilers?');
    const clarify = await eventually(
      () => h!.slack.thread('C1', root.ts).find((m) => render(m).includes('Which region?')),
      5000,
      'questions',
    );
    expect(clarify.blocks.some((b) => b.type === 'actions')).toBe(true);

    const reply = (user: string, text: string) =>
      signedPost(
        app.url,
        eventCallback({
          type: 'message',
          channel: 'C1',
          channel_type: 'channel',
          user,
          text,
          ts: userTs(),
          thread_ts: root.ts,
        }),
        JSON_TYPE,
      );
    await reply('UBOB', 'Asia, and only the last year');
    // An invisible NUL in the answer is dropped rather than losing the answer.
    await reply('UANN', 'Europe, 2020\u0000 to 2025');

    const file = await eventually(() => h!.slack.files.find((f) => f.title), 10_000, 'report.md');
    const thread = h.slack.thread('C1', root.ts).map(render);
    if (process.env.SHOW_THREAD) console.log(thread.join('\n-----\n'));
    expect(render(clarify)).toContain('Answered by <@UANN>');
    expect(clarify.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(thread.some((t) => t.startsWith(':clipboard: *Research plan*\n1. Topic 1'))).toBe(true);
    // The thread has the summary, linked to the whole report in a canvas the channel can read.
    const summary = thread.find((t) => t.startsWith(SUMMARY))!;
    expect(summary).toContain('Finding from Topic 1 <https://example.com/topic-1|[1]>.');
    expect(summary).toMatch(/session [0-9a-f-]{36}/);
    expect(thread.some((t) => t.startsWith('*Sources*'))).toBe(false);
    expect(h.slack.canvases).toHaveLength(1);
    const canvas = h.slack.canvases[0]!;
    const canvasLink = `https://test.slack.com/docs/T1/${canvas.id}`;
    expect(summary).toContain(`:page_facing_up: *<${canvasLink}|Full report>* · 2 sources\n`);
    expect(canvas).toMatchObject({
      title: 'How do heat pumps compare with gas boilers?',
      readers: { channels: ['C1'], users: [] },
    });
    expect(canvas.markdown).toContain('Finding from Topic 1 [[1](https://example.com/topic-1)].');
    expectCitationsResolve(canvas.markdown, 2);
    expect(canvas.markdown).toMatch(/_\d+s · .* · session [0-9a-f-]{36}_$/);
    expect(file.content).toContain('# How do heat pumps compare with gas boilers?');
    expect(file.threadTs).toBe(root.ts);
    // Progress streamed in plan mode to the requester; the plan held the Cancel button until the end.
    const progress = h.slack.thread('C1', root.ts).find((m) => m.stream)!;
    await eventually(() => progress.stream!.state === 'stopped', 5000, 'stream stopped');
    expect(progress.stream).toMatchObject({
      mode: 'plan',
      recipient: { user: 'UANN', team: 'T1' },
      title: 'Research finished · 2 agents · 2 sources',
      tasks: [
        { title: 'Topic 1', status: 'complete', output: '1 source' },
        { title: 'Topic 2', status: 'complete', output: '1 source' },
      ],
    });
    expect(progress.stream!.markdown).toMatch(
      /^\*\*Research complete\*\* · \d+s\n\nFinding from Topic 1 \[1\]\.$/,
    );
    const plan = h.slack
      .thread('C1', root.ts)
      .find((m) => render(m).startsWith(':clipboard: *Research plan*'))!;
    await eventually(() => !plan.blocks.some((b) => b.type === 'actions'), 5000, 'plan without Cancel');
    expect(plan.history.length).toBe(2);
    await eventually(() => render(root).includes('*Report ready*'), 5000, 'root status');
    expect(render(root)).toContain(`<${canvasLink}|read the report>`);

    // Only the requester's reply reached the model.
    const asked = JSON.stringify(h.model.requests);
    expect(asked).toContain('Europe, 2020 to 2025');
    expect(asked).not.toContain('Asia, and only the last year');
    // Nothing the bot sent asks Slack to turn names into mentions.
    expect(h.slack.calls.every((c) => !('link_names' in c.args))).toBe(true);
    expect(h.slack.calls.filter((c) => c.error && c.error !== 'message_not_found')).toEqual([]);
  });
});

const mention = (user: string, text: string, ts: string, threadTs?: string) => ({
  type: 'app_mention',
  channel: 'C1',
  user,
  text,
  ts,
  ...(threadTs ? { thread_ts: threadTs } : {}),
});

describe('mentions', () => {
  it('starts research under a mention, marks it with reactions, and runs a follow-up in the same thread', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    // report.md, which goes after the summary, is slow to upload: the follow-up comes while it is delivered.
    const slowFile = h.slack.answerLate('files.completeUploadExternal', 5000);
    const ts = userTs();
    await signedPost(
      app.url,
      eventCallback(mention('UANN', '<@UBOT> What is the state of fusion power?', ts)),
      JSON_TYPE,
    );
    // The same message also arrives as a plain message event: it must not start a second session.
    await signedPost(
      app.url,
      eventCallback({
        type: 'message',
        channel: 'C1',
        channel_type: 'channel',
        user: 'UANN',
        text: '<@UBOT> What is the state of fusion power?',
        ts,
      }),
      JSON_TYPE,
    );
    await slowFile;
    expect(h.slack.thread('C1', ts).some((m) => render(m).startsWith(SUMMARY))).toBe(true);
    expect((await storedSessions(h)).map((s) => s.status)).toEqual(['delivering']);

    // A follow-up asked once the summary shows waits for the report's delivery to end, then runs.
    const followUp = userTs();
    await signedPost(
      app.url,
      // Asked as a new research ("research …"): a question about the report would be answered from it.
      eventCallback(mention('UBOB', '<@UBOT> research what it will cost', followUp, ts)),
      JSON_TYPE,
    );
    await eventually(
      () => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'),
      10_000,
      'done reaction',
    );
    expect(h.slack.reactionsOn('C1', ts)).toEqual(['white_check_mark']);
    await eventually(
      () => h!.slack.reactionsOn('C1', followUp).includes('white_check_mark'),
      10_000,
      'follow-up',
    );
    const rows = () => storedSessions(h!).then((all) => all.map((s) => [s.turn, s.status, s.question]));
    await eventually(
      async () => (await rows()).every(([, status]) => status === 'done'),
      10_000,
      'both done',
    );
    expect(await rows()).toEqual([
      [1, 'done', 'What is the state of fusion power?'],
      [2, 'done', 'research what it will cost'],
    ]);
    // The follow-up's last research call (the claim check's judge may come after it).
    const followUpRequest = JSON.stringify(
      h.model.requests.filter((r) => !JSON.stringify(r).includes('"name":"citation_check"')).at(-1),
    );
    expect(followUpRequest).toContain('Earlier question: What is the state of fusion power?');
    expect(h.slack.thread('C1', ts).filter((m) => render(m).startsWith(SUMMARY))).toHaveLength(2);
  });

  it('handles a retried event and a double click once', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1, questions: '1. Which reactor designs?' }));
    const app = await h.start();
    const ts = userTs();
    const body = eventCallback(mention('UANN', '<@UBOT> Compare tokamaks and stellarators', ts), 'EvRETRY1');
    await signedPost(app.url, body, JSON_TYPE);
    await signedPost(app.url, body, JSON_TYPE, { retryNum: 1 });
    const clarify = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).includes('Which reactor designs?')),
      5000,
      'questions',
    );
    const click = () =>
      signedPost(
        app.url,
        buttonClick(
          'research_start_now',
          (clarify.blocks.at(-1) as { elements: { value: string }[] }).elements[0]!.value,
          'UANN',
          { channel: 'C1', ts: clarify.ts, threadTs: ts },
          h!.slack.responseUrl('click'),
        ),
        FORM,
      );
    await Promise.all([click(), click()]);
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 10_000, 'done');
    expect(await storedSessions(h)).toHaveLength(1);
    expect(render(clarify)).toContain('<@UANN> started without answering');
    expect(h.slack.thread('C1', ts).filter((m) => render(m).startsWith(SUMMARY))).toHaveLength(1);
    expect(h.slack.thread('C1', ts).filter((m) => render(m).startsWith(':clipboard:'))).toHaveLength(1);
    expect(JSON.stringify(h.model.requests)).toContain('I chose not to answer them');
  });
});

describe('cancel', () => {
  it('is refused for someone else and done for the requester, keeping what was found', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 6, delayMs: 120 }));
    const app = await h.start();
    await signedPost(
      app.url,
      slashCommand('Map the battery supply chain', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    const progress = await eventually(
      () => h!.slack.thread('C1', root.ts).find((m) => m.stream?.tasks.some((t) => t.status === 'complete')),
      10_000,
      'an agent done',
    );
    // A streamed progress message has no buttons: Cancel is on the plan while research runs.
    const plan = h.slack.thread('C1', root.ts).find((m) => render(m).startsWith(':clipboard:'))!;
    const cancelButton = plan.blocks.find((b) => b.type === 'actions')!.elements![0]!;
    const click = (user: string, id: string) =>
      signedPost(
        app.url,
        buttonClick(
          'research_cancel',
          String(cancelButton.value),
          user,
          { channel: 'C1', ts: plan.ts, threadTs: root.ts },
          h!.slack.responseUrl(id),
        ),
        FORM,
      );

    await click('UBOB', 'bob');
    await eventually(() => h!.slack.responses.find((r) => r.url.endsWith('/bob')), 5000, 'refusal');
    expect(h.slack.responses.find((r) => r.url.endsWith('/bob'))!.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'Only <@UANN> (who asked) or a workspace admin can cancel this research.',
    });

    await click('UANN', 'ann');
    await eventually(() => render(root).includes('*Cancelled* by <@UANN>'), 10_000, 'cancelled root');
    const thread = h.slack.thread('C1', root.ts).map(render);
    await eventually(() => progress.stream!.state === 'stopped', 5000, 'final progress');
    expect(progress.stream!.markdown).toMatch(/^\*\*Research cancelled\*\*/);
    await eventually(() => !plan.blocks.some((b) => b.type === 'actions'), 5000, 'plan without Cancel');
    expect(
      thread.some((t) =>
        t.startsWith(':no_entry: Research cancelled by <@UANN>. Here is what was found so far.'),
      ),
    ).toBe(true);
    expect(thread.some((t) => t.includes('Finding from Topic 1'))).toBe(true);
    expect((await storedSessions(h))[0]!.status).toBe('cancelled');
    // Research stopped: far fewer agents than the six the plan had.
    expect(
      h.model.requests.filter((r) => r.tools?.some((t) => t.function.name === 'web_search')).length,
    ).toBeLessThan(12);
  });
});

describe('long and hostile reports', () => {
  it('delivers a report over 40,000 characters completely across messages within Slack limits, with mentions neutralised', async () => {
    h = await slackHarness(
      new RuleLlm({
        rounds: 1,
        reportChars: 45_000,
        reportExtra: 'Alert <!channel> <!here> and ping <@U123> and <!subteam^S1|@devs> @everyone',
      }),
      { REPORT_FORMAT: 'messages' },
    );
    const app = await h.start();
    await signedPost(
      app.url,
      slashCommand('Summarise the evidence', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    await eventually(() => h!.slack.files.find((f) => f.title), 15_000, 'report.md');
    const root = h.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs)!;
    const thread = h.slack.thread('C1', root.ts).map(render);
    const start = thread.findIndex((t) => t.startsWith('*Report*'));
    const end = thread.findIndex((t) => t.startsWith('*Sources*'));
    const parts = thread.slice(start, end);
    expect(parts.length).toBeGreaterThanOrEqual(5);
    const text = parts.join('\n\n');
    const paragraphs = [...text.matchAll(/Paragraph (\d+):/g)].map((m) => Number(m[1]));
    expect(paragraphs.length).toBeGreaterThan(100);
    expect(paragraphs).toEqual(Array.from({ length: paragraphs.length }, (_, i) => i + 1));
    expect(h.slack.files[0]!.content).toContain(`Paragraph ${paragraphs.length}:`);
    expect(h.slack.calls.filter((c) => c.error)).toEqual([]);

    expect(text).toContain('Alert &lt;!channel&gt; &lt;!here&gt; and ping &lt;@U123&gt;');
    expect(text).toContain('@\u200beveryone');
    for (const call of h.slack.calls) {
      const sent = JSON.stringify(call.args);
      expect(sent).not.toMatch(/<!channel>|<!here>|<@U123>|<!subteam/);
    }
  });
});

describe('rate limits', () => {
  it('rides out a 429 storm on chat.update and ends with the final state', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 3, delayMs: 40 }));
    const app = await h.start();
    // Streaming refused here: the progress is the edited message.
    h.slack.fault({ methods: ['chat.startStream'], error: 'channel_type_not_supported', forMs: 600_000 });
    h.slack.rateLimit('chat.update', 8, 1);
    await signedPost(
      app.url,
      slashCommand('Compare three storage technologies', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    await eventually(() => render(root).includes('*Report ready*'), 30_000, 'root status after the storm');
    const progress = h.slack.thread('C1', root.ts).find((m) => isProgress(m))!;
    await eventually(
      () => /^:white_check_mark: \*Research complete\* · 3 agents/.test(render(progress)),
      5000,
      'final progress',
    );
    const limited = h.slack.calls.filter((c) => c.method === 'chat.update' && c.status === 429);
    expect(limited.length).toBe(8);
    // Edits waited out each Retry-After instead of hammering: after a 429 nothing new is sent for a
    // second; only edits already in flight at that moment (same burst) can arrive together.
    const gaps = limited.slice(1).map((c, i) => c.at - limited[i]!.at);
    expect(gaps.every((g) => g < 100 || g >= 900)).toBe(true);
    expect(gaps.filter((g) => g >= 900).length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});

describe('restarts', () => {
  it('resumes a session after a worker restart and keeps editing the same messages', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 4, delayMs: 150 }));
    const first = await h.start();
    await signedPost(
      first.url,
      slashCommand('History of the transistor', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    await eventually(
      () => h!.slack.thread('C1', root.ts).some((m) => m.stream?.tasks.some((t) => t.status === 'complete')),
      10_000,
      'first agent done',
    );
    await first.stop();
    const postsBefore = h.slack.calls.filter((c) => c.method === 'chat.postMessage').length;
    await h.start();
    await eventually(() => render(root).includes('*Report ready*'), 20_000, 'finished after restart');
    const thread = h.slack.thread('C1', root.ts);
    const kinds = thread.map((m) => render(m).split('\n')[0]!.slice(0, 30));
    expect(thread.filter((m) => render(m).startsWith(':clipboard:'))).toHaveLength(1);
    // The restarted worker appended to the same stream and stopped it.
    const progress = thread.filter((m) => m.stream);
    expect(progress).toHaveLength(1);
    await eventually(() => progress[0]!.stream!.state === 'stopped', 5000, 'final progress');
    expect(progress[0]!.stream!.tasks.map((t) => t.status)).toEqual([
      'complete',
      'complete',
      'complete',
      'complete',
    ]);
    expect(kinds.filter((k) => k.startsWith(SUMMARY))).toHaveLength(1);
    // After the restart only the summary was posted (the report went to one canvas); everything else was edited.
    expect(h.slack.calls.filter((c) => c.method === 'chat.postMessage').length - postsBefore).toBe(1);
    expect(h.slack.canvases).toHaveLength(1);
    expect((await sessionsAtRest(h))[0]!.status).toBe('done');
  }, 40_000);
});

describe('requests the app refuses or answers with help', () => {
  it('rejects a bad signature with 401 and runs nothing', async () => {
    h = await slackHarness(new RuleLlm());
    const app = await h.start();
    const res = await signedPost(app.url, slashCommand('Anything', 'UANN', h.slack.responseUrl('x')), FORM, {
      secret: 'wrong',
    });
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.slack.calls.filter((c) => c.method !== 'auth.test')).toEqual([]);
    expect(await storedSessions(h)).toEqual([]);
  });

  it('answers usage for no text and unknown sub-commands, and a clear sentence for an over-long question or a channel it is not in', async () => {
    h = await slackHarness(new RuleLlm());
    const app = await h.start();
    const ack = async (text: string, channel = 'C1') =>
      JSON.parse(
        (
          await signedPost(
            app.url,
            slashCommand(text, 'UANN', h!.slack.responseUrl(text.slice(0, 8) || 'empty'), {
              channel_id: channel,
            }),
            FORM,
          )
        ).body || '{}',
      );
    expect((await ack('')).text).toContain('`/research <question>`');
    expect((await ack('help')).text).toContain('`/research status`');
    const unknown = await ack('frobnicate');
    expect(unknown).toMatchObject({ response_type: 'ephemeral' });
    expect(unknown.text).toMatch(/^`frobnicate` is not a sub-command/);

    await ack('why '.repeat(625).trim());
    const long = await eventually(
      () => h!.slack.responses.find((r) => String(r.body.text).startsWith('Your question is')),
      5000,
      'length reply',
    );
    expect(long.body.text).toBe(
      'Your question is 2,499 characters long; the limit is 2,000. Shorten it, and add details when I ask my clarifying questions.',
    );
    h.slack.notInChannel.add('C9');
    await ack('What changed in EU AI rules in 2025?', 'C9');
    const invite = await eventually(
      () => h!.slack.responses.find((r) => String(r.body.text).startsWith('I am not a member')),
      5000,
      'invite reply',
    );
    expect(invite.body.response_type).toBe('ephemeral');
    expect(await storedSessions(h)).toEqual([]);
    expect((await signedPost(app.url.replace('/slack/events', '/healthz'), '', FORM)).status).toBe(404);
    expect((await fetch(app.url.replace('/slack/events', '/healthz'))).status).toBe(200);
  });
});

describe('DMs, status and admins', () => {
  it('researches a DM in a thread, lists it in /research status, and /research cancel says when nothing is running', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    const ts = userTs();
    await signedPost(
      app.url,
      eventCallback({
        type: 'message',
        channel: 'D1',
        channel_type: 'im',
        user: 'UANN',
        text: 'How do tides work?',
        ts,
      }),
      JSON_TYPE,
    );
    await eventually(
      () => h!.slack.reactionsOn('D1', ts).includes('white_check_mark'),
      10_000,
      'DM research',
    );
    expect(h.slack.thread('D1', ts).some((m) => render(m).startsWith(SUMMARY))).toBe(true);

    await signedPost(app.url, slashCommand('status', 'UANN', h.slack.responseUrl('status')), FORM);
    const status = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/status')),
      5000,
      'status',
    );
    expect(status.body.text).toContain('*Recent*\n• done · <https://test.slack.com/archives/D1/p');
    expect(status.body.text).toContain('|How do tides work?>');

    await signedPost(app.url, slashCommand('cancel', 'UANN', h.slack.responseUrl('cancel')), FORM);
    const cancel = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/cancel')),
      5000,
      'cancel',
    );
    expect(cancel.body.text).toBe('You have no research running.');
  });

  it('lets a workspace admin cancel someone else’s research while it waits for answers', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1, questions: '1. Which market?' }));
    h.slack.admins.add('UADMIN');
    const app = await h.start();
    await signedPost(
      app.url,
      slashCommand('Size the market for home batteries', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    const clarify = await eventually(
      () => h!.slack.thread('C1', root.ts).find((m) => render(m).includes('Which market?')),
      5000,
      'questions',
    );
    const sessionId = (clarify.blocks.at(-1) as { elements: { value: string }[] }).elements[1]!.value;
    await signedPost(
      app.url,
      buttonClick(
        'research_cancel',
        sessionId,
        'UADMIN',
        { channel: 'C1', ts: clarify.ts, threadTs: root.ts },
        h.slack.responseUrl('admin'),
      ),
      FORM,
    );
    await eventually(() => render(root).includes('*Cancelled* by <@UADMIN>'), 5000, 'cancelled');
    expect(render(clarify)).toContain(':no_entry: *Cancelled* by <@UADMIN>');
    expect(clarify.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect((await storedSessions(h))[0]!.status).toBe('cancelled');
    // The thread's agent session waited for the person, then closed with the session.
    await eventually(() => h!.slack.agents.changes('C1', root.ts).at(-1) === 'closed', 5000, 'closed');
    expect(h.slack.agents.changes('C1', root.ts)).toEqual(['processing', 'active', 'closed']);
  });
});

/** Asks a question with /research and waits for it to fail: the stored session and the thread's notice. */
async function failedResearch(harness: SlackHarness, timeoutMs: number) {
  const app = await harness.start();
  await signedPost(
    app.url,
    slashCommand('Why is the sky blue?', 'UANN', harness.slack.responseUrl('cmd')),
    FORM,
  );
  const root = await eventually(
    () => harness.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
    5000,
    'root',
  );
  await eventually(() => render(root).includes(':x: *Failed*'), timeoutMs, 'failed root');
  const [session] = await storedSessions(harness);
  expect(session!.status).toBe('failed');
  const thread = harness.slack.thread('C1', root.ts).map(render);
  return { session, thread, notice: thread.find((t) => t.startsWith(':x: The research failed')) };
}

describe('failures', () => {
  it('says in the thread, in one sentence with the session id, when research fails', async () => {
    const broken = {
      async complete(): Promise<never> {
        throw new Error('model exploded');
      },
    };
    h = await slackHarness(broken, { LLM_MAX_RETRIES: '0' });
    const { session, notice } = await failedResearch(h, 10_000);
    expect(notice).toMatch(new RegExp(`^:x: The research failed: [^\\n]+\\. \\(session ${session!.id}\\)$`));
  });

  it('names the model server when its research answers were all unusable, instead of "found nothing"', async () => {
    // The plan is written; then every orchestrator and agent call gets a 200 whose JSON is cut off.
    h = await slackHarness(new RuleLlm(), {}, { garbage: (p) => p === 'orchestrator' || p === 'agent' });
    const { session, notice, thread } = await failedResearch(h, 60_000);
    expect(notice).toBe(
      `:x: The research failed: The model server at ${h.model.baseUrl} sent answers the research could not use (The model server sent an empty or unreadable answer.), so nothing was researched: check OPENAI_BASE_URL and the model names, or try again later. (session ${session!.id})`,
    );
    expect(thread.join('\n')).not.toContain('found no sources');
  }, 90_000);
});
