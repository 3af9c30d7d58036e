import { describe, expect, it } from 'vitest';
import { SessionThread } from '../../../src/slack/thread/session-thread.js';
import { parseRole, roleKey, type ThreadRole } from '../../../src/slack/thread/thread-roles.js';

describe('thread roles', () => {
  it('names every role one way and reads it back', () => {
    const roles: ThreadRole[] = [
      { kind: 'root' },
      { kind: 'mention' },
      { kind: 'clarify' },
      { kind: 'plan' },
      { kind: 'progress' },
      { kind: 'report', part: 3 },
      { kind: 'sources', part: 0 },
      { kind: 'file' },
      { kind: 'notice', name: 'failed' },
    ];
    for (const role of roles) expect(parseRole(roleKey(role))).toEqual(role);
    expect(roleKey({ kind: 'report', part: 2 })).toBe('report:2');
    for (const bad of ['report', 'report:x', 'notice:other', 'root:1', 'uploaded']) {
      expect(() => parseRole(bad)).toThrow(`unknown thread role "${bad}"`);
    }
  });

  it('builds intents keyed by role: posts in the thread, root edits by ts, reactions on the mention', () => {
    const message = { text: 't', blocks: [] };
    const onRoot = new SessionThread({ sessionId: 's', channelId: 'C1', threadTs: '1.0' });
    expect(onRoot.post({ kind: 'report', part: 1 }, message, true)).toEqual({
      key: 'post:report:1',
      op: 'post',
      role: 'report:1',
      channelId: 'C1',
      threadTs: '1.0',
      payload: { message },
      essential: true,
    });
    expect(onRoot.finishOpener(message, 'done')).toEqual([
      expect.objectContaining({ key: 'update:root', op: 'update', payload: { message, ts: '1.0' } }),
    ]);
    const onMention = new SessionThread({
      sessionId: 's',
      channelId: 'C1',
      threadTs: '1.0',
      mentionTs: '1.5',
    });
    expect(onMention.finishOpener(message, 'cancelled').map((i) => [i.key, i.payload])).toEqual([
      ['unreact:eyes', { name: 'eyes', ts: '1.5' }],
      ['react:no_entry_sign', { name: 'no_entry_sign', ts: '1.5' }],
    ]);
  });
});
