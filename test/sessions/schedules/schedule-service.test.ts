import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ScheduleStore } from '../../../src/sessions/records/schedule-store.js';
import { type ScheduleActor, ScheduleService } from '../../../src/sessions/schedules/schedule-service.js';
import type { Database } from '../../../src/store/database.js';
import { realPostgres } from '../../helpers/postgres.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function setUp(limits = { perPerson: 3, perChannel: 5 }) {
  const db = await realPostgres();
  opened.push(db);
  const service = new ScheduleService({
    schedules: new ScheduleStore(db.pool),
    newId: randomUUID,
    now: () => new Date('2026-11-30T12:00:00Z'),
    maxQuestionChars: 2000,
    minInterval: 'daily',
    limits,
  });
  const add = (owner: string, channelId = 'C1', n = 0) =>
    service.add({
      origin: 'slack',
      owner,
      teamId: 'T1',
      channelId,
      cadence: 'daily at 9:00',
      question: `Tide tables ${n}?`,
      timeZone: 'UTC',
    });
  return { service, add };
}

const owner = (id: string, more: Partial<ScheduleActor> = {}): ScheduleActor => ({
  id,
  lists: 'the list',
  ...more,
});

describe('schedules', () => {
  it('hold the per-person limit when many are added at once, and say which limit in one sentence', async () => {
    const { add } = await setUp();
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => add('ana', `C${n}`, n)));
    expect(results.filter((r) => r.done)).toHaveLength(3);
    const refused = results.find((r) => !r.done);
    expect(refused).toEqual({
      done: false,
      sentence:
        'You already have 3 active schedules, the most one person may have (SCHEDULES_PER_PERSON): pause or remove one first.',
    });
  });

  it('hold the per-channel limit across people, and count only active ones (a resume past it is refused)', async () => {
    const { service, add } = await setUp({ perPerson: 10, perChannel: 2 });
    const [a, b] = [await add('ana'), await add('bob')];
    const third = await add('cat');
    expect(third).toMatchObject({
      done: false,
      sentence: expect.stringContaining('(SCHEDULES_PER_CHANNEL)'),
    });
    if (!a.done || !b.done) throw new Error('not added');
    await service.change(a.schedule.id, owner('ana'), 'pause');
    expect((await add('cat')).done).toBe(true);
    expect(await service.change(a.schedule.id, owner('ana'), 'resume')).toEqual({
      done: false,
      sentence:
        'This channel already has 2 active schedules, the most one channel may have (SCHEDULES_PER_CHANNEL): pause or remove one first, then resume this one.',
    });
  });

  it('name a schedule by at least 8 characters of its id, literally', async () => {
    const { service, add } = await setUp();
    const added = await add('ana');
    if (!added.done) throw new Error('not added');
    const id = added.schedule.id;
    for (const prefix of ['%', '_', '%%%%%%%%', '________', id.slice(0, 1), id.slice(0, 7)]) {
      const changed = await service.change(
        prefix,
        owner('mallory', { mayManage: async () => true }),
        'pause',
      );
      expect(changed).toMatchObject({ done: false, sentence: expect.stringMatching(/^No schedule /) });
    }
    expect(await service.change(id.slice(0, 8), owner('ana'), 'pause')).toMatchObject({ done: true });
  });

  it('may be paused (not resumed or removed) by someone its actor says may pause it, named to its owner', async () => {
    const { service, add } = await setUp();
    const added = await add('ana');
    if (!added.done) throw new Error('not added');
    const id = added.schedule.id;
    const outsider = owner('eve', { mayPause: async () => false });
    expect(await service.change(id, outsider, 'pause')).toEqual({
      done: false,
      sentence: `Schedule ${id.slice(0, 8)} is ana's, not yours.`,
    });
    const member = owner('bob', {
      mayPause: async () => true,
      name: async () => 'Bob, a member of its channel',
    });
    expect(await service.change(id, member, 'remove')).toMatchObject({ done: false });
    const paused = await service.change(id, member, 'pause');
    expect(paused).toMatchObject({
      done: true,
      schedule: {
        status: 'paused',
        pausedReason: 'paused by Bob, a member of its channel',
        pauseNotice: 'due',
      },
    });
    expect(await service.change(id, member, 'resume')).toMatchObject({ done: false });
  });
});
