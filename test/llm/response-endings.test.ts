import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ResponseEndings } from '../../src/llm/response-endings.js';

const elapsed = async (wait: Promise<void>) => {
  const started = Date.now();
  await wait;
  return Date.now() - started;
};

describe('ResponseEndings', () => {
  it('wakes a waiting poller when its request is noticed, and no other', async () => {
    const endings = new ResponseEndings();
    const signal = new AbortController().signal;
    const mine = endings.wait('resp_1', 60_000, signal);
    const other = endings.wait('resp_2', 200, signal);
    expect(endings.notice('resp_1')).toBe(true);
    expect(await elapsed(mine)).toBeLessThan(30_000);
    // resp_2 waits its whole time.
    expect(await elapsed(other)).toBeGreaterThanOrEqual(150);
    // Every wait took its abort listener away with it.
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('keeps a notice that arrives between polls for the next wait, which then returns at once', async () => {
    const endings = new ResponseEndings();
    expect(endings.notice('resp_1')).toBe(false);
    expect(await elapsed(endings.wait('resp_1', 60_000, new AbortController().signal))).toBeLessThan(30_000);
    // Used once: the wait after it is a full wait again.
    expect(await elapsed(endings.wait('resp_1', 100, new AbortController().signal))).toBeGreaterThanOrEqual(
      80,
    );
  });

  it('forgets notices after ten minutes, and stops at the caller’s signal', async () => {
    let now = 0;
    const endings = new ResponseEndings(() => now);
    endings.notice('resp_old');
    now = 11 * 60_000;
    expect(await elapsed(endings.wait('resp_old', 100, new AbortController().signal))).toBeGreaterThanOrEqual(
      80,
    );
    const stop = new AbortController();
    const waiting = endings.wait('resp_1', 60_000, stop.signal);
    stop.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
