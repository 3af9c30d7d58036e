import type pg from 'pg';
import type { FinalReport } from '../../ports/report.js';
import type { EarlierRun } from '../../ports/report-changes.js';
import { inTransaction, type Queryable } from '../../store/database.js';
import { type OverLimit, overLimit, type ScheduleLimits } from './schedule-limits.js';
import { ScheduleRefusals } from './schedule-refusals.js';
import { type NewSchedule, type ScheduleOptions, type ScheduleRow, toScheduleRow } from './schedule-row.js';

// A finished run's cost is on its session (sessions.cost_usd, set when it ends).
const SELECT = `SELECT s.*,
    (SELECT coalesce(sum(r.cost_usd), 0) FROM sessions r WHERE r.schedule_id = s.id) AS cost_usd,
    (SELECT count(*) FROM sessions r WHERE r.schedule_id = s.id) AS runs
  FROM schedules s`;

// Times are compared with what a read returned; JavaScript keeps milliseconds, Postgres microseconds.
const ms = (column: string) => `date_trunc('milliseconds', ${column})`;
const NOW_MS = ms('now()');

/** A schedule whose runs fail (or are refused) this many times in a row pauses, with the last reason. */
export const PAUSE_AFTER_FAILURES = 3;

/**
 * A run's result recorded on its schedule `s` (`$result`, `$failed`): a
 * success resets the failures, a failure counts one, and the third in a row
 * pauses the schedule with that result as the reason.
 */
function recordResult(result: string, failed: string): string {
  const pauses = `${failed} AND s.failures + 1 >= ${PAUSE_AFTER_FAILURES}`;
  return `last_result = ${result},
         failures = CASE WHEN ${failed} THEN s.failures + 1 ELSE 0 END,
         status = CASE WHEN ${pauses} THEN 'paused' ELSE s.status END,
         paused_reason = CASE WHEN ${pauses} THEN ${result} ELSE s.paused_reason END,
         pause_notice = CASE WHEN ${pauses} THEN 'due' ELSE s.pause_notice END,
         paused_at = CASE WHEN ${pauses} THEN now() ELSE s.paused_at END,
         updated_at = now()`;
}

/** Adding and resuming schedules count under one lock: two added at once cannot both take the last place. */
const SCHEDULE_LOCK = 0x5c4e_d01;

/** A slot left pending this long (its process died between taking and admitting it) is taken again. */
const PENDING_STALE_SECONDS = 120;

/**
 * Schedules and their slots. Taking a slot is one compare-and-set on
 * `next_run_at` (two processes asking at once: one wins), which also moves
 * it to the next slot after now, so slots missed while nothing ran collapse
 * into the one taken. The slot stays pending until its session is admitted.
 */
export class ScheduleStore {
  constructor(
    private readonly pool: pg.Pool,
    /** Runs refused at their slots, waiting to be said in their channels. */
    readonly refusals = new ScheduleRefusals(pool),
  ) {}

  /** Adds it, unless its owner or its channel already has as many active schedules as `limits` allow. */
  async add(s: NewSchedule, limits: ScheduleLimits): Promise<OverLimit | null> {
    return inTransaction(
      this.pool,
      async (client) => {
        const over = await overLimit(client, s.owner, s.channelId ?? null, limits);
        if (over) return over;
        await client.query(
          `INSERT INTO schedules (id, origin, owner, team_id, channel_id, question, cadence, cron, time_zone, next_run_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            s.id,
            s.origin,
            s.owner,
            s.teamId ?? null,
            s.channelId ?? null,
            s.question,
            s.cadence,
            s.cron,
            s.timeZone,
            s.nextRunAt,
          ],
        );
        return null;
      },
      SCHEDULE_LOCK,
    );
  }

  /** Resumes a paused schedule from `nextRunAt`, unless its owner or channel is at a limit. */
  async resume(s: ScheduleRow, nextRunAt: Date, limits: ScheduleLimits): Promise<OverLimit | null> {
    if (s.status === 'active') return null;
    return inTransaction(
      this.pool,
      async (client) => {
        const over = await overLimit(client, s.owner, s.channelId ?? null, limits);
        if (over) return over;
        await setStatus(client, s.id, 'active', { nextRunAt });
        return null;
      },
      SCHEDULE_LOCK,
    );
  }

  async get(id: string): Promise<ScheduleRow | null> {
    const { rows } = await this.pool.query(`${SELECT} WHERE s.id = $1`, [id]);
    return rows[0] ? toScheduleRow(rows[0]) : null;
  }

  /**
   * A schedule by the start of its id, as sessions are named: at least
   * `MIN_PREFIX` characters, compared literally (no pattern a `%` could widen).
   */
  async findByPrefix(prefix: string): Promise<ScheduleRow[]> {
    const start = prefix.trim().toLowerCase();
    if (!ID_START.test(start)) return [];
    const { rows } = await this.pool.query(`${SELECT} WHERE left(s.id::text, length($1)) = $1 LIMIT 2`, [
      start,
    ]);
    return rows.map(toScheduleRow);
  }

  /** One person's schedules and those posting in `channelId` (all of them: `owner` unset), oldest first. */
  async list(owner?: string, channelId?: string): Promise<ScheduleRow[]> {
    const { rows } = await this.pool.query(
      `${SELECT} WHERE $1::text IS NULL OR s.owner = $1 OR s.channel_id = $2 ORDER BY s.created_at, s.id`,
      [owner ?? null, channelId ?? null],
    );
    return rows.map(toScheduleRow);
  }

  /** Schedules of `origin` that paused themselves and whose owner is not told yet, oldest first. */
  async pauseNotices(origin: 'slack' | 'cli', limit: number): Promise<ScheduleRow[]> {
    const { rows } = await this.pool.query(
      `${SELECT} WHERE s.pause_notice IN ('due', 'sending') AND s.origin = $1 ORDER BY s.paused_at LIMIT $2`,
      [origin, limit],
    );
    return rows.map(toScheduleRow);
  }

  /** Where the owner's notice of a pause is: about to be sent (it may land), or sent. */
  async notice(id: string, state: 'sending' | 'sent'): Promise<void> {
    await this.pool.query(
      `UPDATE schedules SET pause_notice = $2 WHERE id = $1 AND pause_notice IS NOT NULL`,
      [id, state],
    );
  }

  /**
   * Pauses it (or makes it active again, past any limit: `resume` counts). A
   * pause with a reason is not its owner's own (the scheduler's, a channel
   * member's): its owner is told, once.
   */
  async setStatus(
    id: string,
    status: 'active' | 'paused',
    change: { reason?: string; nextRunAt?: Date } = {},
  ): Promise<boolean> {
    return setStatus(this.pool, id, status, change);
  }

  /** A new cadence (and time zone), from `nextRunAt` on. */
  async reschedule(
    id: string,
    to: { cadence: string; cron: string; timeZone: string; nextRunAt: Date },
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE schedules SET cadence = $2, cron = $3, time_zone = $4, next_run_at = $5, updated_at = now()
       WHERE id = $1`,
      [id, to.cadence, to.cron, to.timeZone, to.nextRunAt],
    );
    return rowCount === 1;
  }

  async configure(id: string, options: ScheduleOptions): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE schedules SET review = coalesce($2, review), delivery = coalesce($3, delivery), updated_at = now()
       WHERE id = $1`,
      [id, options.review ?? null, options.delivery ?? null],
    );
    return rowCount === 1;
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM schedules WHERE id = $1', [id]);
    return rowCount === 1;
  }

  /**
   * Active schedules of `origins` whose slot has come, and slots left
   * pending by a process that died: each owner's earliest first, then each
   * one's second, and so on, so one person's many schedules never keep
   * another's waiting.
   */
  async due(now: Date, limit: number, origins: readonly ('slack' | 'cli')[]): Promise<ScheduleRow[]> {
    const { rows } = await this.pool.query(
      `WITH due AS (
         SELECT s.id, coalesce(s.pending_slot, s.next_run_at) AS at,
           row_number() OVER (PARTITION BY s.owner ORDER BY coalesce(s.pending_slot, s.next_run_at), s.id) AS turn
         FROM schedules s
         WHERE ((s.status = 'active' AND s.next_run_at <= $1 AND s.pending_slot IS NULL)
            OR (s.pending_slot IS NOT NULL AND s.pending_since <= $1 - make_interval(secs => $3)))
           AND s.origin = ANY($4::text[])
         ORDER BY turn, at LIMIT $2)
       ${SELECT} JOIN due ON due.id = s.id ORDER BY due.turn, due.at`,
      [now, limit, PENDING_STALE_SECONDS, origins],
    );
    return rows.map(toScheduleRow);
  }

  /**
   * Takes the schedule's due slot (as `due` read it) and moves it on to `next`;
   * false when another process took it first or it changed meanwhile.
   */
  async take(s: ScheduleRow, next: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE schedules SET pending_slot = next_run_at, pending_since = ${NOW_MS}, next_run_at = $3, updated_at = now()
       WHERE id = $1 AND ${ms('next_run_at')} = $2 AND status = 'active' AND pending_slot IS NULL`,
      [s.id, s.nextRunAt, next],
    );
    return rowCount === 1;
  }

  /** Takes over a slot left pending by a process that died (as `due` read it); false when another did. */
  async retake(s: ScheduleRow): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE schedules SET pending_since = ${NOW_MS}, updated_at = now()
       WHERE id = $1 AND ${ms('pending_slot')} = $2 AND ${ms('pending_since')} = $3`,
      [s.id, s.pendingSlot, s.pendingSince],
    );
    return rowCount === 1;
  }

  /**
   * The slot is done: its session was admitted (`sessionId`), or it was
   * refused, said in `result` (a refusal counts as a failed run).
   */
  async settle(
    id: string,
    slot: Date,
    outcome: { sessionId?: string; result: string; failed: boolean },
  ): Promise<{ paused: boolean }> {
    const { rows } = await this.pool.query(
      `UPDATE schedules s SET pending_slot = NULL, pending_since = NULL,
         last_session_id = coalesce($3, last_session_id), ${recordResult('$4', '$5')}
       WHERE id = $1 AND ${ms('pending_slot')} = $2
       RETURNING status`,
      [id, slot, outcome.sessionId ?? null, outcome.result, outcome.failed],
    );
    return { paused: rows[0]?.status === 'paused' };
  }

  /** The schedule's latest run with a report before `sessionId`: what a new run compares itself with. */
  async earlierRun(scheduleId: string, sessionId: string): Promise<EarlierRun | null> {
    const { rows } = await this.pool.query(
      `SELECT id, finished_at, report FROM sessions
       WHERE schedule_id = $1 AND id <> $2 AND status IN ('done', 'delivering') AND report IS NOT NULL
         AND created_at < (SELECT created_at FROM sessions WHERE id = $2)
       ORDER BY created_at DESC LIMIT 1`,
      [scheduleId, sessionId],
    );
    const r = rows[0];
    return r ? { sessionId: r.id, finishedAt: r.finished_at, report: r.report as FinalReport } : null;
  }

  /**
   * A scheduled run came to rest, done or failed (said in `result`). Returns
   * its schedule, or null when the session is no schedule's run.
   */
  async runEnded(
    sessionId: string,
    outcome: { failed: boolean; result: string },
  ): Promise<{ scheduleId: string; paused: boolean } | null> {
    const { rows } = await this.pool.query(
      `UPDATE schedules s SET ${recordResult('$2', '$3')}
       FROM sessions r WHERE r.id = $1 AND r.schedule_id = s.id
       RETURNING s.id, s.status`,
      [sessionId, outcome.result, outcome.failed],
    );
    return rows[0] ? { scheduleId: rows[0].id as string, paused: rows[0].status === 'paused' } : null;
  }
}

/** The start of a schedule's id as people type it: at least 8 of its characters (`MIN_PREFIX`). */
const ID_START = /^[0-9a-f-]{8,36}$/;

async function setStatus(
  db: Queryable,
  id: string,
  status: 'active' | 'paused',
  change: { reason?: string; nextRunAt?: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE schedules SET status = $2, paused_reason = $3, next_run_at = coalesce($4, next_run_at),
       failures = CASE WHEN $2 = 'active' THEN 0 ELSE failures END, updated_at = now(),
       pause_notice = CASE WHEN $3::text IS NOT NULL THEN 'due' END,
       paused_at = CASE WHEN $2 = 'paused' THEN now() END
     WHERE id = $1`,
    [id, status, status === 'paused' ? (change.reason ?? null) : null, change.nextRunAt ?? null],
  );
  return rowCount === 1;
}
