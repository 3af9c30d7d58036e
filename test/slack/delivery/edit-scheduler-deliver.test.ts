import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { SlackCallError, SlackRateLimited } from '../../../src/slack/api/slack-errors.js';
import { EditScheduler } from '../../../src/slack/delivery/edit-scheduler.js';

const target = { team: 'T1', channel: 'C1', ts: '1.0', sessionId: 's' };
const msg = (text: string) => ({ text, blocks: [] });

describe('EditScheduler.deliver (durable edits)', () => {
  it('resolves once Slack took the content, waiting out 429s, and rejects with Slack’s refusal', async () => {
    const sent: string[] = [];
    let calls = 0;
    const scheduler = new EditScheduler(
      async (_t, m) => {
        calls += 1;
        if (calls === 1) throw new SlackRateLimited(50);
        if (m.text === 'gone') throw new SlackCallError('message_not_found', 'chat.update');
        sent.push(m.text);
      },
      { minIntervalMs: 10, perMinute: 100, logger: silentLogger },
    );
    await scheduler.deliver(target, msg('final'));
    expect(sent).toEqual(['final']);
    await expect(scheduler.deliver(target, msg('gone'))).rejects.toThrow('message_not_found');
    scheduler.stop();
  });

  it('counts a newer content as delivering an older one', async () => {
    const sent: string[] = [];
    const scheduler = new EditScheduler(
      async (_t, m) => {
        await new Promise((r) => setTimeout(r, 30));
        sent.push(m.text);
      },
      { minIntervalMs: 100, perMinute: 100, logger: silentLogger },
    );
    scheduler.update(target, msg('live 1'));
    const first = scheduler.deliver(target, msg('final 1'));
    const second = scheduler.deliver(target, msg('final 2'));
    await Promise.all([first, second]);
    expect(sent.at(-1)).toBe('final 2');
    expect(sent).not.toContain('final 1');
    scheduler.stop();
  });
});
