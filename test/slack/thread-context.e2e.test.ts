import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const asText = (h: SlackHarness) => JSON.stringify(h.model.requests);

describe('the thread as context', () => {
  it('gives research the earlier messages of the thread it was asked in, attributed, mentions neutralised', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    h.slack.people.set('UANN', 'Ann Example');
    h.slack.people.set('UBOB', 'Bob Sample');
    // A discussion in C1, and another thread next to it that must not be read.
    const root = h.slack.say('C1', 'UANN', 'We need to pick a heat pump for the Leeds office by March.');
    h.slack.say('C1', 'UBOB', '<@UANN> the budget is £12k, and <!channel> please weigh in', root);
    h.slack.say('C1', 'UANN', 'Noise matters: the unit sits next to <#C9|meeting-rooms>', root);
    const other = h.slack.say('C1', 'UBOB', 'Unrelated: the quarterly numbers are secret-figure-42');
    h.slack.say('C1', 'UBOB', 'More unrelated secret-figure-43', other);
    const app = await h.start();
    const ts = `${Math.floor(Date.now() / 1000) + 5}.000100`;
    const mention = {
      type: 'app_mention',
      channel: 'C1',
      user: 'UANN',
      text: '<@UBOT> which of these options fits best?',
      ts,
      thread_ts: root,
    };
    await signedPost(app.url, eventCallback(mention), JSON_TYPE);
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'done', 30_000, 'the report');

    // Clarification, planning and the report are all given the same discussion.
    const discussions = h.model.requests
      .flatMap((r) => r.messages.map((m) => String(m.content ?? '')))
      .map((text) => /<discussion>\n([\s\S]*?)\n<\/discussion>/.exec(text)?.[1])
      .filter(Boolean);
    expect(discussions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(discussions)).toEqual(
      new Set([
        [
          'Ann Example: We need to pick a heat pump for the Leeds office by March.',
          'Bob Sample: @Ann Example the budget is £12k, and @-channel please weigh in',
          'Ann Example: Noise matters: the unit sits next to #meeting-rooms',
        ].join('\n'),
      ]),
    );
    // No other thread is read.
    expect(asText(h)).not.toContain('secret-figure');
    const plan = h.slack.thread('C1', root).find((m) => render(m).startsWith(':clipboard: *Research plan*'))!;
    expect(render(plan)).toContain(':speech_balloon: Using the 3 earlier messages of this thread.');
  }, 60_000);

  it('adds nothing when the question opens its thread', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    const ts = `${Math.floor(Date.now() / 1000) + 5}.000200`;
    const mention = {
      type: 'app_mention',
      channel: 'C1',
      user: 'UANN',
      text: '<@UBOT> How do tides work?',
      ts,
    };
    await signedPost(app.url, eventCallback(mention), JSON_TYPE);
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'done', 30_000, 'the report');
    expect(asText(h)).not.toContain('<discussion>');
    const plan = h.slack.thread('C1', ts).find((m) => render(m).startsWith(':clipboard: *Research plan*'))!;
    expect(render(plan)).not.toContain('earlier message');
  }, 60_000);
});
