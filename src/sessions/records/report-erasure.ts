import { inTransaction, type Queryable } from '../../store/database.js';
import { insertIntentsSql, intentsJson, type OutboxIntent } from './outbox-intent.js';
import { type SessionRow, toRow } from './session-row.js';
import { FINISHED } from './session-status.js';
import { type SlackMessageRef, slackMessagesOf } from './session-store.js';

/** The writes that take a deleted session's messages, canvas and file out of Slack (built by the Slack surface). */
export type EraseIntents = (
  row: SessionRow,
  messages: Map<string, SlackMessageRef>,
  deletedBy: string,
) => OutboxIntent[];

export type Erasure =
  | { erased: true; row: SessionRow; writes: number }
  /** `unfinished`: research or its delivery is under way; it can be deleted once it has come to rest. */
  | { erased: false; why: 'missing' | 'already' | 'unfinished'; row?: SessionRow };

/**
 * Deletes a finished session's content in one transaction: its question,
 * plan, report, checkpoint, events, kept sources, answers, steering notes,
 * file reads and reuse offers go at once, and the writes that remove what
 * it showed in Slack are recorded in the outbox with the change (durable,
 * retried). The row stays as a tombstone (who deleted it, what it cost,
 * since the money was spent) until RETENTION_DAYS.
 */
export async function eraseSession(
  pool: Parameters<typeof inTransaction>[0],
  id: string,
  deletedBy: string,
  intents: EraseIntents | undefined,
  deliveryDeadlineHours: number,
): Promise<Erasure> {
  return inTransaction(pool, async (db) => {
    const { rows } = await db.query('SELECT * FROM sessions WHERE id = $1 FOR UPDATE', [id]);
    if (!rows[0]) return { erased: false, why: 'missing' };
    const row = toRow(rows[0]);
    if (row.deleted) return { erased: false, why: 'already', row };
    if (!FINISHED.includes(row.status)) return { erased: false, why: 'unfinished', row };
    const writes = intents?.(row, await slackMessagesOf(db, id), deletedBy) ?? [];
    await db.query(
      `WITH kept AS (
         -- What questions asked of it cost still counts against the caps.
         INSERT INTO paid_calls (id, requester, team_id, purpose, cost_usd, tokens, channel_id, created_at)
         SELECT gen_random_uuid(), asker, team_id, 'question to a deleted report', COALESCE(cost_usd, 0),
                input_tokens + output_tokens, $2, created_at
         FROM report_answers WHERE session_id = $1)
       SELECT 1`,
      [id, row.channelId],
    );
    for (const table of ERASED)
      await db.query(
        `DELETE FROM ${table} WHERE ${table === 'reuse_offers' ? 'earlier_session' : 'session_id'} = $1`,
        [id],
      );
    // Writes not yet sent would show it again: they go. One on its way now is removed when it lands (OutboxStore.sent).
    await db.query(
      `DELETE FROM slack_outbox WHERE session_id = $1 AND state = 'pending'
         AND (claim_expires_at IS NULL OR claim_expires_at < now())`,
      [id],
    );
    await db.query(
      `UPDATE sessions SET question = '', plan = NULL, error = NULL, delivery_note = NULL,
         cost_usd = COALESCE(cost_usd, (report->>'costUsd')::float8), report = NULL,
         deleted_at = now(), deleted_by = $2
       WHERE id = $1`,
      [id, deletedBy],
    );
    if (writes.length)
      await db.query(
        `WITH s AS (SELECT id FROM sessions WHERE id = $1) ${insertIntentsSql('s', '$2', '$3')}`,
        [id, intentsJson(writes), deliveryDeadlineHours],
      );
    return { erased: true, row, writes: writes.length };
  });
}

/** What a session keeps besides its row; all of it goes with its content. */
const ERASED = [
  'report_answers',
  'report_exports',
  'reuse_offers',
  'repeat_offers',
  'session_source_passages',
  'session_sources',
  'file_reads',
  'session_events',
  'session_steering',
  'checkpoints',
] as const;

/** Finished sessions past RETENTION_DAYS, not yet deleted: the ones retention deletes next (at most `limit`). */
export async function expiredSessions(db: Queryable, days: number, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT id FROM sessions WHERE deleted_at IS NULL AND status = ANY($2::text[])
       AND created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $3`,
    [days, FINISHED, limit],
  );
  return rows.map((r) => r.id);
}

/** Deleted sessions past RETENTION_DAYS whose removals from Slack are settled: their rows go. */
export async function purgeTombstones(db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM sessions s WHERE s.deleted_at IS NOT NULL AND s.created_at < now() - make_interval(days => $1)
       AND NOT EXISTS (SELECT 1 FROM slack_outbox o WHERE o.session_id = s.id AND o.state = 'pending')`,
    [days],
  );
  return rowCount ?? 0;
}
