import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { SlackRateLimited } from '../../../src/slack/api/slack-errors.js';
import { EditScheduler, type EditTarget } from '../../../src/slack/delivery/edit-scheduler.js';
import type { SlackMessage } from '../../../src/slack/render/messages.js';

const msg = (text: string): SlackMessage => ({ text, blocks: [] });
const target = (team: string, ts: string): EditTarget => ({ team, channel: 'C1', ts, sessionId: `s-${ts}` });
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function recorder(fail?: (call: number, t: EditTarget) => Error | undefined) {
  const calls: { at: number; team: string; ts: string; text: string }[] = [];
  let n = 0;
  const send = async (t: EditTarget, m: SlackMessage) => {
    const error = fail?.(++n, t);
    calls.push({ at: Date.now(), team: t.team, ts: t.ts, text: m.text });
    if (error) throw error;
  };
  return { calls, send };
}

describe('EditScheduler', () => {
  it('keeps no state for the messages of a session whose live view closed, except a durable edit in progress', async () => {
    const { send } = recorder();
    const scheduler = new EditScheduler(send, { minIntervalMs: 50, perMinute: 100, logger: silentLogger });
    for (let i = 0; i < 50; i++) scheduler.update(target('T1', `${i}.0`), msg('live'));
    const durable = scheduler.deliver(target('T1', '0.0'), msg('final'));
    expect(scheduler.trackedMessages()).toBe(50);
    for (let i = 0; i < 50; i++) scheduler.forget(`s-${i}.0`);
    // Only the durable edit's message is kept for its outcome; edits on their way go when Slack answers.
    await durable;
    for (let i = 0; i < 200 && scheduler.trackedMessages() > 0; i++) await wait(10);
    expect(scheduler.trackedMessages()).toBe(0);
    scheduler.stop();
  });

  it('sends only the latest content, at most once per interval per message', async () => {
    const { calls, send } = recorder();
    const scheduler = new EditScheduler(send, { minIntervalMs: 200, perMinute: 100, logger: silentLogger });
    const t = target('T1', '1.0');
    const started = Date.now();
    for (let i = 1; i <= 30; i++) {
      scheduler.update(t, msg(`state ${i}`));
      await wait(15);
    }
    await scheduler.flush(t);
    const elapsed = Date.now() - started;
    scheduler.stop();
    expect(calls.at(-1)!.text).toBe('state 30');
    // About 450 ms of updates: 4 edits on an idle machine; however long a busy one takes, one per 200 ms.
    expect(calls.length).toBeLessThanOrEqual(Math.floor(elapsed / 195) + 1);
    expect(calls.length).toBeLessThan(15);
    for (let i = 1; i < calls.length; i++)
      expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(195);
  });

  it('shares one budget per workspace across messages, and workspaces do not share it', async () => {
    const { calls, send } = recorder();
    const scheduler = new EditScheduler(send, {
      minIntervalMs: 0,
      perMinute: 3,
      windowMs: 400,
      logger: silentLogger,
    });
    const started = Date.now();
    const t1 = ['1', '2', '3', '4', '5'].map((ts) => target('T1', ts));
    for (const t of t1) scheduler.update(t, msg(`T1 ${t.ts}`));
    scheduler.update(target('T2', '9'), msg('T2 9'));
    await Promise.all(t1.map((t) => scheduler.flush(t)));
    scheduler.stop();
    const team1 = calls.filter((c) => c.team === 'T1');
    expect(team1).toHaveLength(5);
    // The fourth and fifth edits wait for the window to move on; T2's edit did not wait for T1.
    expect(team1[3]!.at - started).toBeGreaterThanOrEqual(390);
    expect(calls.find((c) => c.team === 'T2')!.at - started).toBeLessThan(100);
  });

  it('honours a 429 for that workspace only, then delivers the newest content', async () => {
    const { calls, send } = recorder((n, t) =>
      n === 1 && t.team === 'T1' ? new SlackRateLimited(300) : undefined,
    );
    const scheduler = new EditScheduler(send, { minIntervalMs: 50, perMinute: 100, logger: silentLogger });
    const a = target('T1', '1');
    scheduler.update(a, msg('first'));
    await wait(20);
    scheduler.update(a, msg('second'));
    scheduler.update(a, msg('third'));
    scheduler.update(target('T2', '2'), msg('other workspace'));
    const started = Date.now();
    await scheduler.flush(a);
    scheduler.stop();
    expect(scheduler.stats.rateLimited).toBe(1);
    expect(calls.filter((c) => c.team === 'T1').map((c) => c.text)).toEqual(['first', 'third']);
    expect(calls.at(-1)!.at - started).toBeGreaterThanOrEqual(250);
    expect(calls.find((c) => c.team === 'T2')!.at - started).toBeLessThan(100);
  });

  it('drops content Slack refuses, and still delivers later content', async () => {
    const { calls, send } = recorder((n) => (n === 1 ? new Error('msg_too_long') : undefined));
    const scheduler = new EditScheduler(send, { minIntervalMs: 10, perMinute: 100, logger: silentLogger });
    const t = target('T1', '1');
    scheduler.update(t, msg('too long'));
    await scheduler.flush(t);
    scheduler.update(t, msg('fine'));
    await scheduler.flush(t);
    scheduler.stop();
    expect(calls.map((c) => c.text)).toEqual(['too long', 'fine']);
    expect(scheduler.stats.failed).toBe(1);
  });

  it('sends the final states of finished sessions before live refreshes when the budget is short', async () => {
    const { calls, send } = recorder();
    const scheduler = new EditScheduler(send, {
      minIntervalMs: 0,
      perMinute: 2,
      windowMs: 300,
      logger: silentLogger,
    });
    // Use up the window, then queue three refreshes and one final.
    scheduler.update(target('T1', 'a'), msg('a1'));
    scheduler.update(target('T1', 'b'), msg('b1'));
    for (const ts of ['c', 'd', 'e']) scheduler.update(target('T1', ts), msg(`${ts} refresh`));
    scheduler.update(target('T1', 'z'), msg('z final'), { final: true });
    await scheduler.drain(5000);
    scheduler.stop();
    expect(calls.map((c) => c.text).slice(2, 3)).toEqual(['z final']);
    expect(calls).toHaveLength(6);
  });
});
