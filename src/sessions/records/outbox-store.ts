import type pg from 'pg';
import { insertIntentsSql, intentsJson, type OutboxIntent } from './outbox-intent.js';
import type { SlackMessageRef } from './session-store.js';

/** An intent as the dispatcher handles it, with what it needs to know of its session. */
export interface OutboxRow extends Required<Omit<OutboxIntent, 'threadTs'>> {
  id: string;
  sessionId: string;
  threadTs?: string;
  state: 'pending' | 'sent' | 'failed';
  version: number;
  attempts: number;
  uncertain: boolean;
  progress: { fileId?: string } | null;
  lastError: string | null;
  createdAt: Date;
  requester: string;
  teamId: string;
}

/**
 * The Slack outbox (migrations/004_delivery.sql). Only the oldest pending
 * intent of a session can be claimed, so a session's writes reach Slack in
 * the order they were recorded, whichever process sends them.
 */
export class OutboxStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly deliveryDeadlineHours: number,
  ) {}

  /** Records writes that no status change causes (plan, progress, queue notice, DM copies). */
  async add(sessionId: string, intents: OutboxIntent[]): Promise<void> {
    if (intents.length === 0) return;
    await this.pool.query(`WITH s AS (SELECT $1::uuid AS id) ${insertIntentsSql('s', '$2', '$3')}`, [
      sessionId,
      intentsJson(intents),
      this.deliveryDeadlineHours,
    ]);
  }

  /** The head intent of each session that is due and not claimed, oldest first. */
  async due(limit: number): Promise<OutboxRow[]> {
    const { rows } = await this.pool.query(
      `${SELECT_ROWS}
       WHERE o.id IN (SELECT DISTINCT ON (session_id) id FROM slack_outbox WHERE state = 'pending'
                      ORDER BY session_id, id)
         AND o.next_attempt_at <= now()
         AND (o.claim_expires_at IS NULL OR o.claim_expires_at < now())
       ORDER BY o.id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /**
   * Takes an intent for one attempt; null when another process was quicker.
   * A post or upload is marked uncertain from here on (the attempt may reach
   * Slack with nobody left to record it); `wasUncertain` says whether an
   * earlier attempt might already have.
   */
  async claim(id: string, owner: string, leaseMs: number): Promise<{ wasUncertain: boolean } | null> {
    const { rows } = await this.pool.query(
      `UPDATE slack_outbox o SET claimed_by = $2, claim_expires_at = now() + make_interval(secs => $3),
         attempts = o.attempts + 1, uncertain = o.uncertain OR o.op IN ('post', 'upload')
       FROM (SELECT id, uncertain FROM slack_outbox WHERE id = $1) before
       WHERE o.id = before.id AND o.state = 'pending'
         AND (o.claim_expires_at IS NULL OR o.claim_expires_at < now())
       RETURNING before.uncertain AS was_uncertain`,
      [id, owner, leaseMs / 1000],
    );
    return rows[0] ? { wasUncertain: rows[0].was_uncertain } : null;
  }

  async saveProgress(id: string, progress: { fileId: string }): Promise<void> {
    await this.pool.query('UPDATE slack_outbox SET progress = $2 WHERE id = $1', [
      id,
      JSON.stringify(progress),
    ]);
  }

  /**
   * Slack took it: the intent is sent (unless its content was replaced
   * meanwhile) and where the message is, by role, in the same statement; a
   * root posted in its session's channel before the thread existed (a
   * scheduled run's) makes the thread. A write that was on its way when its
   * session was deleted is removed in turn (its removal recorded here).
   */
  async sent(row: OutboxRow, where?: SlackMessageRef): Promise<void> {
    await this.pool.query(
      `WITH o AS (
         UPDATE slack_outbox SET state = CASE WHEN version = $2 THEN 'sent' ELSE state END,
           done_at = now(), claimed_by = NULL, claim_expires_at = NULL, uncertain = false, last_error = NULL
         WHERE id = $1 RETURNING session_id, role)
       , m AS (INSERT INTO slack_messages (session_id, role, channel_id, ts, file_id, streaming)
       SELECT session_id, role, $3, $4, $5, $6 FROM o WHERE $3::text IS NOT NULL
       ON CONFLICT (session_id, role) DO UPDATE SET channel_id = $3, ts = $4, file_id = $5, streaming = $6)
       , late AS (INSERT INTO slack_outbox (session_id, key, op, role, channel_id, payload, deadline_at)
         SELECT o.session_id, 'erase:late:' || o.role, 'delete', o.role, $3,
           CASE WHEN o.role = 'canvas' THEN jsonb_build_object('canvas', $5::text)
                WHEN $4::text IS NULL THEN jsonb_build_object('file', $5::text)
                ELSE jsonb_build_object('ts', $4::text) END,
           now() + make_interval(secs => $7::float8 * 3600)
         FROM o JOIN sessions d ON d.id = o.session_id
         WHERE d.deleted_at IS NOT NULL AND $3::text IS NOT NULL AND o.role NOT IN ('root', 'mention')
         ON CONFLICT (session_id, key) DO NOTHING)
       UPDATE sessions s SET thread_ts = $4, updated_at = now() FROM o
       WHERE s.id = o.session_id AND o.role = 'root' AND s.thread_ts IS NULL AND s.channel_id = $3
         AND $4::text IS NOT NULL`,
      [
        row.id,
        row.version,
        where?.channelId ?? null,
        where?.ts ?? null,
        where?.fileId ?? null,
        Boolean(where?.streaming),
        this.deliveryDeadlineHours,
      ],
    );
  }

  /** Try again after `delayMs`; `uncertain` when the attempt may have reached Slack. */
  async retry(id: string, delayMs: number, error: string, uncertain: boolean): Promise<void> {
    await this.pool.query(
      `UPDATE slack_outbox SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3,
         uncertain = $4, claimed_by = NULL, claim_expires_at = NULL
       WHERE id = $1 AND state = 'pending'`,
      [id, delayMs / 1000, error, uncertain],
    );
  }

  async failed(id: string, error: string): Promise<void> {
    await this.pool.query(
      `UPDATE slack_outbox SET state = 'failed', last_error = $2, done_at = now(), claimed_by = NULL
       WHERE id = $1 AND state = 'pending'`,
      [id, error],
    );
  }

  /**
   * The channel cannot be used (archived, gone, the bot removed): every write
   * still pending there fails, and the essential ones that failed there are
   * returned to be sent to the requester instead.
   */
  async abandonChannel(sessionId: string, channelId: string, error: string): Promise<OutboxIntent[]> {
    await this.pool.query(
      `UPDATE slack_outbox SET state = 'failed', last_error = $3, done_at = now(), claimed_by = NULL
       WHERE session_id = $1 AND channel_id = $2 AND state = 'pending'`,
      [sessionId, channelId, error],
    );
    const { rows } = await this.pool.query(
      `${SELECT_ROWS} WHERE o.session_id = $1 AND o.channel_id = $2 AND o.essential AND o.state = 'failed'
       ORDER BY o.id`,
      [sessionId, channelId],
    );
    return rows.map(toRow);
  }

  /** Intents past their deadline fail; returns their sessions with the last error seen. */
  async expireOverdue(): Promise<{ sessionId: string; lastError: string | null }[]> {
    const { rows } = await this.pool.query(
      `UPDATE slack_outbox SET state = 'failed', done_at = now(), claimed_by = NULL,
         last_error = 'not delivered within DELIVERY_DEADLINE_HOURS' || COALESCE(' (last error: ' || last_error || ')', '')
       WHERE state = 'pending' AND deadline_at < now()
       RETURNING session_id, last_error`,
    );
    const bySession = new Map(rows.map((r) => [r.session_id as string, r.last_error as string | null]));
    return [...bySession].map(([sessionId, lastError]) => ({ sessionId, lastError }));
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query(
      "SELECT count(*)::int AS n FROM slack_outbox WHERE state = 'pending'",
    );
    return rows[0].n;
  }

  /** Every intent of a session, oldest first: for `sessions show` and tests. */
  async forSession(sessionId: string): Promise<OutboxRow[]> {
    const { rows } = await this.pool.query(`${SELECT_ROWS} WHERE o.session_id = $1 ORDER BY o.id`, [
      sessionId,
    ]);
    return rows.map(toRow);
  }
}

const SELECT_ROWS = `SELECT o.*, s.requester, s.team_id AS session_team
  FROM slack_outbox o JOIN sessions s ON s.id = o.session_id`;

function toRow(r: Record<string, unknown>): OutboxRow {
  return {
    id: String(r.id),
    sessionId: r.session_id as string,
    key: r.key as string,
    op: r.op as OutboxRow['op'],
    role: r.role as string,
    channelId: r.channel_id as string,
    threadTs: (r.thread_ts as string | null) ?? undefined,
    state: r.state as OutboxRow['state'],
    payload: r.payload,
    essential: r.essential as boolean,
    version: r.version as number,
    attempts: r.attempts as number,
    uncertain: r.uncertain as boolean,
    progress: r.progress as OutboxRow['progress'],
    lastError: r.last_error as string | null,
    createdAt: r.created_at as Date,
    requester: r.requester as string,
    teamId: (r.session_team as string | null) ?? '',
  };
}
