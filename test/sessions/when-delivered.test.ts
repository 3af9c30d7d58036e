import { describe, expect, it } from 'vitest';
import type { SessionRow } from '../../src/sessions/records/session-store.js';
import { whenDelivered } from '../../src/sessions/when-delivered.js';

const row = (status: string) => ({ id: 's1', status }) as SessionRow;

/** A store whose session goes through `statuses`, one per read (then stays at the last). */
function store(statuses: (string | null)[]) {
  let reads = 0;
  return {
    reads: () => reads,
    get: async () => {
      const status = statuses[Math.min(reads++, statuses.length - 1)];
      return status === null || status === undefined ? null : row(status);
    },
  };
}

describe('whenDelivered', () => {
  it('returns a session at once when it is not being delivered', async () => {
    const s = store([]);
    expect(await whenDelivered(s, row('done'))).toMatchObject({ status: 'done' });
    expect(s.reads()).toBe(0);
  });

  it('waits for a delivery to end, and says when the session is gone', async () => {
    expect(await whenDelivered(store(['delivering', 'done']), row('delivering'))).toMatchObject({
      status: 'done',
    });
    expect(await whenDelivered(store([null]), row('delivering'))).toBeNull();
  });

  it('gives up after its wait, with the session still being delivered', async () => {
    const s = store(['delivering']);
    expect(await whenDelivered(s, row('delivering'), 600)).toMatchObject({ status: 'delivering' });
    expect(s.reads()).toBeGreaterThan(0);
  });
});
