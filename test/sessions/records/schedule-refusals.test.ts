import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ScheduleStore } from '../../../src/sessions/records/schedule-store.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe('refused scheduled runs waiting to be said', () => {
  it('wait while their owner has a slot still due or being admitted at that time, but not for one stuck pending', async () => {
    const db = await realPostgres();
    opened.push(db);
    const schedules = new ScheduleStore(db.pool);
    const slot = new Date('2026-11-30T09:00:00Z');
    const add = async (owner: string, question: string) => {
      const id = randomUUID();
      await schedules.add(
        {
          id,
          origin: 'slack',
          owner,
          teamId: 'T1',
          channelId: 'C1',
          question,
          cadence: 'daily at 09:00',
          cron: '0 9 * * *',
          timeZone: 'UTC',
          nextRunAt: slot,
        },
        { perPerson: 10, perChannel: 10 },
      );
      return (await schedules.get(id))!;
    };
    const refused = await add('ana', 'Refused?');
    const other = await add('ana', 'Still due?');
    // The first one's slot is taken, refused and settled, as the scheduler's pass does.
    const tomorrow = new Date('2026-12-01T09:00:00Z');
    expect(await schedules.take(refused, tomorrow)).toBe(true);
    await schedules.refusals.add(refused, slot, { channelId: 'C1' }, 'Your limit is reached.');
    await schedules.settle(refused.id, slot, { result: 'not started: Your limit is reached.', failed: true });
    // Ana's other schedule at that time is not taken yet: nothing is said.
    expect(await schedules.refusals.due(10)).toEqual([]);
    // Taken, being admitted: still nothing.
    expect(await schedules.take(other, tomorrow)).toBe(true);
    expect(await schedules.refusals.due(10)).toEqual([]);
    // Its admission has failed for ten minutes (a stuck slot): the refusal is said without it.
    await db.pool.query("UPDATE schedules SET pending_since = now() - interval '10 minutes' WHERE id = $1", [
      other.id,
    ]);
    const [group] = await schedules.refusals.due(10);
    expect(group).toMatchObject({
      owner: 'ana',
      channelId: 'C1',
      threadTs: '',
      sentence: 'Your limit is reached.',
      schedules: [{ id: refused.id, question: 'Refused?' }],
      sending: false,
    });
    await schedules.refusals.said(group!, 'said');
    expect(await schedules.refusals.due(10)).toEqual([]);
  });
});
