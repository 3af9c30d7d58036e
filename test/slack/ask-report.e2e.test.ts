import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, FORM, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PAGES = {
  'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
  'topic 2': ['Neap tides come at the quarter moons, when the sun and the moon pull at right angles.'],
};

describe('asking a finished report in its thread', () => {
  it('answers from the kept sources in seconds, with no search, page read or research; an unanswerable question offers [Research this]', async () => {
    h = await slackHarness(
      new RuleLlm({ rounds: 2, readPages: true }),
      {},
      { localPages: true, pageText: PAGES },
    );
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    const app = await h.start();
    const ts = '1800000900.000001';
    const mention = (text: string, at: string, user = 'UBOB') =>
      signedPost(
        app.url,
        eventCallback({
          type: 'app_mention',
          channel: 'C1',
          user,
          text: `<@UBOT> ${text}`,
          ts: at,
          thread_ts: ts,
        }),
        JSON_TYPE,
      );
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_mention',
        channel: 'C1',
        user: 'UANN',
        text: '<@UBOT> How do tides work?',
        ts,
      }),
      JSON_TYPE,
    );
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'the report');
    const webBefore = h.search.hits.length;
    const modelBefore = h.model.requests.length;

    // Another member asks about the report: answered from what the research read.
    const asked = Date.now();
    await mention('When do neap tides come?', '1800000900.000100');
    const answer = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).includes('quarter moons')),
      15_000,
      'the answer within 15 s',
    );
    expect(Date.now() - asked).toBeLessThan(15_000);
    const text = render(answer);
    expect(text).toMatch(/Neap tides come at the quarter moons.*<http:\/\/127\.0\.0\.1:\d+\/topic-2\|\[2\]>/);
    expect(text).toContain('Answered from this report and the sources its research read');
    expect(JSON.stringify(answer)).not.toMatch(/<@U|<!(channel|here)/);
    expect(h.search.hits.length).toBe(webBefore);
    const after = h.model.requests.slice(modelBefore);
    expect(after).toHaveLength(1);
    expect(after[0]!.response_format?.json_schema?.name).toBe('report_question');

    // Nothing in the sources answers it: said plainly, with [Research this].
    await mention('What is the price of tea in China?', '1800000900.000200');
    const unanswered = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).includes('do not answer that question')),
      15_000,
      'the plain sentence',
    );
    const button = unanswered.blocks.find((b) => b.type === 'actions')!.elements![0]!;
    expect(button.action_id).toBe('research_this');
    // Someone outside the channel, or a click claiming another conversation, starts nothing.
    for (const [user, channel, id] of [
      ['UEVE', 'C1', 'eve'],
      ['UBOB', 'C2', 'elsewhere'],
    ] as const) {
      await signedPost(
        app.url,
        buttonClick(
          'research_this',
          String(button.value),
          user,
          { channel, ts: unanswered.ts },
          h.slack.responseUrl(id),
        ),
        FORM,
      );
      const reply = await eventually(
        () => h!.slack.responses.find((r) => r.url.endsWith(`/${id}`)),
        10_000,
        id,
      );
      expect(String(reply.body.text)).toMatch(/^You can research this only in the thread where it was asked/);
    }
    await signedPost(
      app.url,
      buttonClick(
        'research_this',
        String(button.value),
        'UBOB',
        { channel: 'C1', ts: unanswered.ts, threadTs: ts },
        h.slack.responseUrl('this'),
      ),
      FORM,
    );
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 2,
      60_000,
      'the follow-up research',
    );
    const sessions = await storedSessions(h);
    expect(sessions.map((s) => s.question)).toContain('What is the price of tea in China?');
    // The follow-up marks the person's mention as the thread's opener: it never tries to edit their message.
    expect(h.slack.calls.filter((c) => c.error && c.error !== 'already_reacted')).toEqual([]);
  }, 120_000);

  it('tells the asker in one sentence when the model fails, stores nothing, and answers once it is back', async () => {
    let broken = false;
    h = await slackHarness(
      new RuleLlm({ rounds: 1, readPages: true }),
      { LLM_MAX_RETRIES: '1' },
      { localPages: true, pageText: PAGES, garbage: (purpose) => broken && purpose === 'report_question' },
    );
    const app = await h.start();
    const ts = '1800000901.000001';
    const post = (text: string, at: string) =>
      signedPost(
        app.url,
        eventCallback({
          type: 'app_mention',
          channel: 'C1',
          user: 'UBOB',
          text: `<@UBOT> ${text}`,
          ts: at,
          ...(at === ts ? {} : { thread_ts: ts }),
        }),
        JSON_TYPE,
      );
    await post('How do tides work?', ts);
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'the report');
    broken = true;
    await post('When do spring tides happen?', '1800000901.000100');
    const said = await eventually(
      () =>
        h!.slack.calls.find(
          (c) => c.method === 'chat.postEphemeral' && String(c.args.text).startsWith('Could not answer'),
        ),
      30_000,
      'the sentence',
    );
    expect(String(said.args.text)).toMatch(/^Could not answer that from the report: .+/);
    expect(h.slack.thread('C1', ts).some((m) => render(m).includes('Spring tides happen'))).toBe(false);
    broken = false;
    await post('When do spring tides happen?', '1800000901.000200');
    await eventually(
      () =>
        h!.slack.thread('C1', ts).find((m) => render(m).includes('Spring tides happen at new and full moon')),
      15_000,
      'the answer',
    );
  }, 120_000);
});
