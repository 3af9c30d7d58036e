import { WebAPIHTTPError, WebAPIRequestError } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../../src/sessions/records/outbox-store.js';
import { SlackCallError, SlackRateLimited } from '../../../src/slack/api/slack-errors.js';
import {
  classifyFailure,
  fallbackIntents,
  featureRefused,
} from '../../../src/slack/delivery/delivery-failures.js';

const row = (op: OutboxRow['op'], channelId = 'C1') =>
  ({ id: '1', sessionId: 'sess', op, channelId, key: `${op}:report:0`, role: 'report:0' }) as OutboxRow;
const refused = (code: string) => new SlackCallError(code, 'chat.postMessage');

describe('delivery failures', () => {
  it('sorts what Slack says by what to do about it', () => {
    expect(classifyFailure(row('post'), new SlackRateLimited(2000)).kind).toBe('rate-limited');
    for (const code of ['invalid_auth', 'token_revoked', 'account_inactive', 'missing_scope']) {
      expect(classifyFailure(row('post'), refused(code))).toEqual({ kind: 'auth', code });
    }
    for (const code of ['channel_not_found', 'is_archived', 'not_in_channel', 'restricted_action']) {
      expect(classifyFailure(row('post'), refused(code)).kind).toBe('channel-gone');
      // The DM itself cannot fall back any further.
      expect(classifyFailure(row('post', 'dm'), refused(code)).kind).toBe('refused');
    }
    expect(classifyFailure(row('post'), refused('internal_error'))).toEqual({
      kind: 'transient',
      code: 'internal_error',
      mayHaveLanded: true,
    });
    expect(classifyFailure(row('update'), refused('message_not_found'))).toEqual({
      kind: 'refused',
      code: 'message_not_found',
      quiet: true,
    });
    expect(classifyFailure(row('post'), refused('msg_too_long'))).toMatchObject({
      kind: 'refused',
      quiet: false,
    });
  });

  it('treats dropped connections, timeouts and 5xx as unknown outcomes for posts, not for edits', () => {
    const reset = new WebAPIRequestError(new Error('fetch failed'));
    expect(classifyFailure(row('post'), reset)).toEqual({
      kind: 'transient',
      code: 'slack_webapi_request_error',
      mayHaveLanded: true,
    });
    const http = new WebAPIHTTPError(503, 'Service Unavailable', {});
    expect(classifyFailure(row('update'), http)).toMatchObject({ kind: 'transient', mayHaveLanded: false });
  });

  it("gives an agent status a few tries only, and never treats its refusal as the thread's or the token's", () => {
    const agent = (attempts: number) => ({ ...row('agent_status'), attempts }) as OutboxRow;
    const down = new WebAPIHTTPError(503, 'Service Unavailable', {});
    expect(classifyFailure(agent(1), down)).toMatchObject({ kind: 'transient', mayHaveLanded: false });
    expect(classifyFailure(agent(3), down)).toMatchObject({ kind: 'refused', quiet: true });
    expect(classifyFailure(agent(3), refused('internal_error'))).toEqual({
      kind: 'refused',
      code: 'internal_error',
      quiet: true,
    });
    // Refused for good: not an agent app here, or a channel that takes no agent sessions (perform-intent falls
    // back before this); a bad token is still everyone's problem.
    for (const code of ['not_allowed_token_type', 'missing_scope', 'restricted_action', 'channel_not_found'])
      expect(featureRefused(code, 'agent_status')).toBe(true);
    expect(featureRefused('restricted_action', 'post')).toBe(false);
    expect(featureRefused('invalid_auth', 'agent_status')).toBe(false);
    expect(featureRefused('internal_error', 'agent_status')).toBe(false);
  });

  it('sends the requester one sentence saying why, then the essential writes, by DM', () => {
    const failed = [
      { key: 'post:report:0', op: 'post' as const, role: 'report:0', channelId: 'C1', payload: { x: 1 } },
      { key: 'upload:file', op: 'upload' as const, role: 'file', channelId: 'C1', payload: { y: 2 } },
    ];
    const intents = fallbackIntents(row('post'), failed, 'is_archived');
    expect(intents.map((i) => [i.key, i.channelId, i.essential ?? false])).toEqual([
      ['dm:notice', 'dm', false],
      ['dm:post:report:0', 'dm', true],
      ['dm:upload:file', 'dm', true],
    ]);
    expect(JSON.stringify(intents[0]!.payload)).toContain(
      'I could not post your research in <#C1> because the channel is archived, so here it is. (session sess)',
    );
  });
});
