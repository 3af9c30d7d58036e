import { describe, expect, it } from 'vitest';
import type { SlackApi } from '../../src/slack/api/slack-api.js';
import { threadDiscussion } from '../../src/slack/thread-discussion.js';

/** conversations.replies as Slack answers it (recorded shape), and users.info display names. */
function api(messages: Record<string, unknown>[], names: Record<string, string> = {}): SlackApi {
  return {
    call: (_method: string, run: () => Promise<unknown>) => run(),
    client: { conversations: { replies: async () => ({ ok: true, messages, has_more: false }) } },
    userName: async (user: string) => names[user] ?? user,
  } as unknown as SlackApi;
}

const before = '200.000000';

describe('the discussion a question comes from', () => {
  it('keeps the newest messages within the limits, skips notices, and names bots', async () => {
    const messages = [
      { ts: '100.000001', user: 'U1', text: 'first' },
      { ts: '101.000000', subtype: 'channel_join', user: 'U2', text: '<@U2> has joined the channel' },
      { ts: '102.000000', bot_id: 'B1', bot_profile: { name: 'Jira' }, text: 'PROJ-1 created' },
      { ts: '103.000000', user: 'U2', text: 'x'.repeat(50) },
      { ts: '104.000000', user: 'U1', text: 'last before the question' },
      { ts: '200.000000', user: 'U1', text: 'the question itself' },
      { ts: '201.000000', user: 'U2', text: 'after the question' },
    ];
    const found = await threadDiscussion(api(messages, { U1: 'Ann', U2: 'Bob' }), messages, before, {
      messages: 3,
      chars: 1000,
      perMessage: 20,
    });
    expect(found).toEqual({
      text: ['Jira: PROJ-1 created', `Bob: ${'x'.repeat(20)}…`, 'Ann: last before the ques…'].join('\n'),
      messages: 3,
    });
    const small = await threadDiscussion(api(messages, { U1: 'Ann', U2: 'Bob' }), messages, before, {
      messages: 40,
      chars: 40,
      perMessage: 2000,
    });
    expect(small).toEqual({ text: 'Ann: last before the question', messages: 1 });
  });

  it('turns mentions, channel-wide pings, channels and links into plain words', async () => {
    const text =
      'cc <@U2|bob> <!here> <!subteam^S1|@design> in <#C9|ops>: <https://ex.com/a|the doc> and <https://ex.com/b>';
    const said = [{ ts: '150.0', user: 'U1', text }];
    const found = await threadDiscussion(api(said, { U1: 'Ann', U2: 'Bob' }), said, before);
    expect(found?.text).toBe(
      'Ann: cc @Bob @-here @-design in #ops: the doc (https://ex.com/a) and https://ex.com/b',
    );
    const later = [{ ts: '250.0', user: 'U1', text: 'later' }];
    expect(await threadDiscussion(api(later), later, before)).toBeUndefined();
  });
});
