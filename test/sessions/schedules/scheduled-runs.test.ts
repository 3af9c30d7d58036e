import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { ScheduleStore } from '../../../src/sessions/records/schedule-store.js';
import { SessionStore } from '../../../src/sessions/records/session-store.js';
import { nextSlot, slotSessionId } from '../../../src/sessions/schedules/cadence.js';
import { runDueSlots, type ScheduledRunsDeps } from '../../../src/sessions/schedules/scheduled-runs.js';
import type { Database } from '../../../src/store/database.js';
import { embeddedPglite, realPostgres } from '../../helpers/postgres.js';
import { testService } from '../../helpers/session-room.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

const WEEKLY = '0 9 * * 1';
const ZONE = 'America/New_York';

/** Real Postgres, or the embedded database (each a copy of the run's migrated template). */
let open: () => Promise<Database> = realPostgres;

async function setUp(options: { perUser?: number } = {}) {
  const db = await open();
  opened.push(db);
  const schedules = new ScheduleStore(db.pool);
  const sessions = new SessionStore(db.pool);
  const service = testService(db, {
    rules: async () => ({ perUser: options.perUser ?? 100, caps: {}, costUsd: null }),
  });
  const deps: ScheduledRunsDeps = {
    schedules,
    service,
    exists: async (id) => (await sessions.get(id)) !== null,
    planReviewSeconds: 0,
    log: silentLogger,
  };
  const add = async (firstSlot: Date, owner = 'ana') => {
    const id = randomUUID();
    await schedules.add(
      {
        id,
        origin: 'cli',
        owner,
        question: 'What changed in EU AI rules this week?',
        cadence: 'weekly on monday at 09:00',
        cron: WEEKLY,
        timeZone: ZONE,
        nextRunAt: firstSlot,
      },
      { perPerson: 10_000, perChannel: 10_000 },
    );
    return id;
  };
  const runsOf = async (id: string) =>
    (await db.pool.query('SELECT id, status FROM sessions WHERE schedule_id = $1 ORDER BY created_at', [id]))
      .rows as { id: string; status: string }[];
  return { db, schedules, deps, add, runsOf };
}

describe.each([
  ['real Postgres', realPostgres],
  [
    'embedded PGlite',
    async () => {
      const db = await embeddedPglite();
      const close = async () => {
        await db.close();
        db.cleanup();
      };
      return { ...db, close };
    },
  ],
  // PGlite's first open compiles its WebAssembly (8-13 s on two idle cores): generous on a busy machine.
] as const)('scheduled runs on %s', { timeout: 60_000 }, (_name, opener) => {
  beforeAll(() => {
    open = opener;
  });

  it('run once per slot, weekly at 9:00 New York time across the end of daylight saving time', async () => {
    const { schedules, deps, add, runsOf } = await setUp();
    const first = nextSlot(WEEKLY, ZONE, new Date('2026-10-20T00:00:00Z'));
    const id = await add(first);
    // Each Monday at 9:00 local and a little after: the slot runs then, and not again before the next.
    const slots = ['2026-10-26T13:00:00Z', '2026-11-02T14:00:00Z', '2026-11-09T14:00:00Z'];
    for (const slot of slots) {
      const at = new Date(slot);
      expect(await runDueSlots(deps, new Date(at.getTime() - 60_000))).toBe(0);
      expect(await runDueSlots(deps, new Date(at.getTime() + 5_000))).toBe(1);
      expect(await runDueSlots(deps, new Date(at.getTime() + 3 * 3600_000))).toBe(0);
    }
    const runs = await runsOf(id);
    expect(runs.map((r) => r.id)).toEqual(slots.map((s) => slotSessionId(id, new Date(s))));
    expect(runs.every((r) => r.status === 'queued')).toBe(true);
    const row = await schedules.get(id);
    expect(row).toMatchObject({ runs: 3, lastResult: 'started', failures: 0, pendingSlot: null });
    expect(row!.nextRunAt.toISOString()).toBe('2026-11-16T14:00:00.000Z');
  });

  it("take each owner's earliest slot first: one person's 120 refused slots do not keep another's waiting", async () => {
    const { deps, add, runsOf } = await setUp();
    const slot = new Date('2026-11-02T14:00:00Z');
    // Ana's are all earlier than Bob's, and all refused (her limit reached); a pass looks at 50 slots.
    for (let i = 0; i < 120; i++) await add(new Date(slot.getTime() - (i + 1) * 1000), 'ana');
    const bob = await add(slot, 'bob');
    const refused = { started: false as const, refusal: { kind: 'too_many' as const, active: 2, limit: 2 } };
    const order: string[] = [];
    const pass = () =>
      runDueSlots(
        {
          ...deps,
          service: {
            queue: async (request, opening) => {
              order.push(request.session.requester);
              return request.session.requester === 'ana' ? refused : deps.service.queue(request, opening);
            },
          },
        },
        new Date(slot.getTime() + 1000),
      );
    // A pass stops after its time budget (a busy machine may need more than one to take every slot).
    let admitted = 0;
    for (let passes = 0; order.length < 121 && passes < 20; passes++) admitted += await pass();
    expect(admitted).toBe(1);
    expect(order).toHaveLength(121);
    // Bob's slot is taken in the first turn (after Ana's earliest), not after her 120.
    expect(order.indexOf('bob')).toBe(1);
    expect(await runsOf(bob)).toHaveLength(1);
  });

  it('give one run when two workers reach the same slot at once', async () => {
    const { deps, add, runsOf } = await setUp();
    const slot = new Date('2026-11-02T14:00:00Z');
    const id = await add(slot);
    const now = new Date(slot.getTime() + 1000);
    const admitted = await Promise.all([
      runDueSlots(deps, now),
      runDueSlots(deps, now),
      runDueSlots(deps, now),
    ]);
    expect(admitted.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('run a slot missed while nothing ran once when they come back, not once per missed slot', async () => {
    const { schedules, deps, add, runsOf } = await setUp();
    const id = await add(new Date('2026-10-05T13:00:00Z'));
    // Down for five Mondays.
    const back = new Date('2026-11-04T12:00:00Z');
    expect(await runDueSlots(deps, back)).toBe(1);
    expect(await runDueSlots(deps, new Date(back.getTime() + 60_000))).toBe(0);
    expect(await runsOf(id)).toHaveLength(1);
    expect((await schedules.get(id))!.nextRunAt.toISOString()).toBe('2026-11-09T14:00:00.000Z');
  });

  it('make good a slot taken by a process that died before admitting it, once', async () => {
    const { schedules, deps, add, runsOf } = await setUp();
    const slot = new Date('2026-11-02T14:00:00Z');
    const id = await add(slot);
    // A worker takes the slot, then dies before its session exists.
    const [due] = await schedules.due(new Date(slot.getTime() + 1000), 10, ['cli']);
    expect(await schedules.take(due!, nextSlot(WEEKLY, ZONE, new Date()))).toBe(true);
    expect(await runDueSlots(deps, new Date())).toBe(0);
    expect(await runsOf(id)).toHaveLength(0);
    // Once the pending slot is stale, one of two workers takes it over and admits its run.
    const later = new Date(Date.now() + 5 * 60_000);
    const admitted = await Promise.all([runDueSlots(deps, later), runDueSlots(deps, later)]);
    expect(admitted.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await runsOf(id)).map((r) => r.id)).toEqual([slotSessionId(id, slot)]);
    expect((await schedules.get(id))!.pendingSlot).toBeNull();
  });

  it('settles a slot whose session was admitted just before its process died, without a second run', async () => {
    const { schedules, deps, add, runsOf } = await setUp();
    const slot = new Date('2026-11-02T14:00:00Z');
    const id = await add(slot);
    const [due] = await schedules.due(new Date(slot.getTime() + 1000), 10, ['cli']);
    await schedules.take(due!, nextSlot(WEEKLY, ZONE, new Date()));
    await deps.service.queue({
      session: {
        id: slotSessionId(id, slot),
        origin: 'cli',
        requester: 'ana',
        question: 'Q?',
        scheduleId: id,
      },
      request: { skipClarification: true },
    });
    expect(await runDueSlots(deps, new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect(await runsOf(id)).toHaveLength(1);
    expect(await schedules.get(id)).toMatchObject({ pendingSlot: null, lastResult: 'started' });
  });

  it("keeps each run's end as the last result, and pauses after three failed runs in a row", async () => {
    const { schedules, deps, add, runsOf } = await setUp();
    const id = await add(new Date('2026-10-26T13:00:00Z'));
    await runDueSlots(deps, new Date('2026-10-26T13:00:05Z'));
    const [run] = await runsOf(id);
    const failed = { failed: true, result: 'failed: the model server refused the key' };
    expect(await schedules.runEnded(run!.id, failed)).toEqual({ scheduleId: id, paused: false });
    expect(await schedules.runEnded(run!.id, failed)).toEqual({ scheduleId: id, paused: false });
    await schedules.runEnded(run!.id, { failed: false, result: 'report ready' });
    expect(await schedules.get(id)).toMatchObject({
      failures: 0,
      lastResult: 'report ready',
      status: 'active',
    });
    for (const n of [1, 2]) expect((await schedules.runEnded(run!.id, failed))?.paused).toBe(n === 3);
    expect(await schedules.runEnded(run!.id, failed)).toEqual({ scheduleId: id, paused: true });
    expect(await schedules.get(id)).toMatchObject({
      status: 'paused',
      pausedReason: 'failed: the model server refused the key',
    });
    // A session that is no schedule's run changes nothing.
    expect(await schedules.runEnded(randomUUID(), failed)).toBeNull();
  });

  it('says why a run was refused, and pauses the schedule after three refusals in a row', async () => {
    const { db, schedules, deps, add } = await setUp({ perUser: 1 });
    // The owner already has research running: the per-person limit refuses each run.
    await db.pool.query(
      "INSERT INTO sessions (id, origin, requester, question, status) VALUES ($1, 'cli', 'bo', 'Busy?', 'running')",
      [randomUUID()],
    );
    const id = await add(new Date('2026-10-26T13:00:00Z'), 'bo');
    for (const [n, slot] of ['2026-10-26T13:00:05Z', '2026-11-02T14:00:05Z'].entries()) {
      await runDueSlots(deps, new Date(slot));
      expect(await schedules.get(id)).toMatchObject({
        status: 'active',
        failures: n + 1,
        lastResult:
          'not started: you already have 1 research sessions running (the limit is 1); wait for one to finish or cancel it.',
      });
    }
    await runDueSlots(deps, new Date('2026-11-09T14:00:05Z'));
    expect(await schedules.get(id)).toMatchObject({
      status: 'paused',
      failures: 3,
      pausedReason: expect.stringMatching(/^not started: you already have 1 research sessions running/),
    });
    // Paused: no more slots are taken.
    expect(await runDueSlots(deps, new Date('2026-11-16T14:00:05Z'))).toBe(0);
  });
});
