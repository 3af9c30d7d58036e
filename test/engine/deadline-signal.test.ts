import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/engine/deadline-signal.js';

describe('withDeadline', () => {
  it('aborts the work when the time passes, saying it timed out', async () => {
    const outcome = await withDeadline(
      20,
      [],
      (signal, timedOut) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve([signal.reason.name, timedOut()])),
        ),
    );
    expect(outcome).toEqual(['TimeoutError', true]);
  });

  it('aborts with a parent, and lets go of the parent once the work is done', async () => {
    const parent = new AbortController();
    let added = 0;
    let removed = 0;
    const add = parent.signal.addEventListener.bind(parent.signal);
    const remove = parent.signal.removeEventListener.bind(parent.signal);
    parent.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added += 1;
      add(...args);
    }) as typeof add;
    parent.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed += 1;
      remove(...args);
    }) as typeof remove;
    expect(await withDeadline(60_000, [parent.signal], async () => 'done')).toBe('done');
    expect([added, removed]).toEqual([1, 1]);

    const cancelled = withDeadline(
      60_000,
      [parent.signal],
      (signal, timedOut) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve([signal.reason, timedOut()])),
        ),
    );
    parent.abort('cancelled by user');
    expect(await cancelled).toEqual(['cancelled by user', false]);
  });

  it('starts aborted when a parent already is', async () => {
    const parent = new AbortController();
    parent.abort('gone');
    expect(await withDeadline(60_000, [parent.signal, undefined], async (signal) => signal.aborted)).toBe(
      true,
    );
  });
});
