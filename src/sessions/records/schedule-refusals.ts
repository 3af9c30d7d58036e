import type pg from 'pg';
import type { ScheduleRow } from './schedule-row.js';

/** A refused run waiting to be said: one message per owner, place and slot (see `refusalsDue`). */
export interface RefusalGroup {
  owner: string;
  channelId: string;
  /** A digest's thread; empty: the channel. */
  threadTs: string;
  slot: Date;
  sentence: string;
  /** The schedules refused, oldest first. */
  schedules: { id: string; question: string }[];
  /** A message for them may already have landed (looked for before posting again). */
  sending: boolean;
}

/**
 * A slot pending this long is stuck (its admission keeps failing): the
 * refusals of its owner at that time are said without waiting for it.
 */
const STUCK_SECONDS = 300;

/**
 * Scheduled Slack runs refused at their slots (a cap, the per-person limit),
 * kept until said: the scheduler's pass only records them, and the refusals
 * of one owner in one place at one slot are said in one message after it.
 */
export class ScheduleRefusals {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * A Slack run refused at `slot` (in `channelId`, or a digest's `threadTs`),
   * to be said with the owner's other refusals there at that slot. Recorded
   * once however often the slot is retried.
   */
  async add(s: ScheduleRow, slot: Date, place: { channelId: string; threadTs?: string }, sentence: string) {
    await this.pool.query(
      `INSERT INTO schedule_refusals (schedule_id, slot, owner, channel_id, thread_ts, sentence)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [s.id, slot, s.owner, place.channelId, place.threadTs ?? '', sentence],
    );
  }

  /**
   * Refusals not yet said, gathered per owner, place and slot, earliest
   * first; a slot whose owner still has schedules due then (taken by later
   * passes) waits, so its refusals are said together.
   */
  async due(limit: number): Promise<RefusalGroup[]> {
    const { rows } = await this.pool.query(
      `SELECT r.owner, r.channel_id, r.thread_ts, r.slot, min(r.sentence) AS sentence,
         bool_or(r.notice = 'sending') AS sending,
         json_agg(json_build_object('id', r.schedule_id, 'question', s.question) ORDER BY s.created_at) AS schedules
       FROM schedule_refusals r JOIN schedules s ON s.id = r.schedule_id
       WHERE NOT EXISTS (SELECT 1 FROM schedules d WHERE d.owner = r.owner
         AND ((d.status = 'active' AND d.next_run_at <= r.slot AND d.pending_slot IS NULL)
           OR (d.pending_slot <= r.slot AND d.pending_since > now() - make_interval(secs => $2))))
       GROUP BY r.owner, r.channel_id, r.thread_ts, r.slot
       ORDER BY r.slot LIMIT $1`,
      [limit, STUCK_SECONDS],
    );
    return rows.map((r) => ({
      owner: r.owner,
      channelId: r.channel_id,
      threadTs: r.thread_ts,
      slot: r.slot,
      sentence: r.sentence,
      schedules: r.schedules,
      sending: r.sending,
    }));
  }

  /** A group's message is about to be posted (`sending`), or landed (its refusals go). */
  async said(group: RefusalGroup, state: 'sending' | 'said'): Promise<void> {
    const ids = group.schedules.map((s) => s.id);
    await this.pool.query(
      state === 'sending'
        ? `UPDATE schedule_refusals SET notice = 'sending' WHERE schedule_id = ANY($1::uuid[]) AND slot = $2`
        : 'DELETE FROM schedule_refusals WHERE schedule_id = ANY($1::uuid[]) AND slot = $2',
      [ids, group.slot],
    );
  }
}
