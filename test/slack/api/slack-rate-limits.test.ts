import { describe, expect, it } from 'vitest';
import { SlackRateLimits } from '../../../src/slack/api/slack-rate-limits.js';

describe('SlackRateLimits', () => {
  it('allows a short burst of posts per channel, then one every 1.1 s, channels apart', () => {
    let now = 0;
    const limits = new SlackRateLimits(() => now);
    expect([1, 2, 3].map(() => limits.tryTake('chat.postMessage', 'C1'))).toEqual([0, 0, 0]);
    expect(limits.wouldWait('chat.postMessage', 'C1')).toBe(1100);
    expect(limits.tryTake('chat.postMessage', 'C1')).toBe(1100);
    expect(limits.tryTake('chat.postMessage', 'C2')).toBe(0);
    now = 1100;
    expect(limits.wouldWait('chat.postMessage', 'C1')).toBe(0);
    expect(limits.tryTake('chat.postMessage', 'C1')).toBe(0);
    expect(limits.tryTake('chat.postMessage', 'C1')).toBe(1100);
    // Over any window, no more than burst + elapsed / 1.1 s: under Slack's "about one a second".
    let sent = 0;
    for (now = 2200; now < 62_200; now += 50) if (limits.tryTake('chat.postMessage', 'C1') === 0) sent++;
    expect(sent).toBeLessThanOrEqual(55);
    expect(sent).toBeGreaterThanOrEqual(54);
  });

  it('pauses a method for Retry-After, and limits other methods per workspace, each by its own tier', () => {
    let now = 0;
    const limits = new SlackRateLimits(() => now);
    limits.pause('chat.postMessage', 'C1', 5000);
    expect(limits.tryTake('chat.postMessage', 'C1')).toBe(5000);
    expect(limits.tryTake('chat.postMessage', 'C2')).toBe(0);
    for (let i = 0; i < 5; i++) expect(limits.tryTake('reactions.add', `C${i}`)).toBe(0);
    expect(limits.tryTake('reactions.add', 'C9')).toBe(1300);
    // Each method has its own tier: reactions.remove is Tier 2.
    for (let i = 0; i < 3; i++) expect(limits.tryTake('reactions.remove', 'C1')).toBe(0);
    expect(limits.tryTake('reactions.remove', 'C1')).toBe(3100);
    expect(limits.tryTake('conversations.replies', 'C1')).toBe(0);
    expect(limits.tryTake('users.info')).toBe(0);
    now = 5000;
    expect(limits.tryTake('chat.postMessage', 'C1')).toBe(0);
  });
});
