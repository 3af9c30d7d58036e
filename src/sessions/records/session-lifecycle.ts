import type pg from 'pg';
import type { Checkpoint } from '../../ports/research.js';
import { CancelRequests } from './cancel-requests.js';
import { upsertCheckpointSql } from './checkpoint-upsert.js';
import { LeaseLostError } from './lease-lost-error.js';
import { insertIntentsSql, intentsJson, type OutboxIntent } from './outbox-intent.js';
import type { RestingRecord } from './session-row.js';
import { FINISHED, movesTo, type SessionStatus } from './session-status.js';

/**
 * Owns a session's status: every status write goes through here, each as one
 * statement guarded by the moves the table allows (movesTo) and, for a worker,
 * by holding the lease. Slack writes caused by a move are recorded in the same
 * statement, so a crash never separates the state from what the thread must show.
 */
export class SessionLifecycle {
  /** Asking a running session to stop (not a status write: the process running it ends it). */
  readonly cancels: CancelRequests;

  constructor(
    private readonly pool: pg.Pool,
    private readonly deliveryDeadlineHours: number,
  ) {
    this.cancels = new CancelRequests(pool);
  }

  /** A worker claimed a queued (or started) session (a resumed one is already running); false if it was not waiting. */
  async begin(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET status = $3, updated_at = now()
       WHERE id = $1 AND status = ANY($4::text[]) AND lease_owner = $2`,
      [id, owner, 'running', movesTo('running', ['queued', 'reviewing'])],
    );
    return rowCount === 1;
  }

  async reporting(id: string, owner?: string): Promise<void> {
    await this.move(id, 'reporting', { owner, from: ['running'] });
  }

  async awaitAnswers(id: string, owner: string | undefined, intents: OutboxIntent[] = []): Promise<void> {
    await this.move(id, 'clarifying', { owner, intents });
  }

  /**
   * The plan waits for the requester; a worker takes the session up again in
   * `seconds` (or at [Start now]). `null`: the process holding it shows the
   * plan itself (a terminal) and keeps the lease.
   */
  async awaitStart(
    id: string,
    owner: string | undefined,
    seconds: number | null,
    intents: OutboxIntent[] = [],
  ): Promise<void> {
    await this.move(id, 'reviewing', { owner, intents, dueInSeconds: seconds ?? undefined });
  }

  /** [Start now]: the reviewed plan's session is due at once; false if it is not waiting (a repeat click). */
  async startNow(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET queued_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'reviewing' AND queued_at > now() AND cancel_requested_at IS NULL`,
      [id],
    );
    return rowCount === 1;
  }

  /**
   * [Edit plan]: the plan the orchestrator will receive, in the checkpoint and
   * on the session, while it still waits; false once research has started.
   */
  async editPlan(
    id: string,
    edited: { plan: string; checkpoint: Checkpoint },
    seconds: number,
    intents: OutboxIntent[] = [],
  ): Promise<boolean> {
    // The wait starts again: the requester reads the edited plan before it starts by itself.
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET plan = $2, updated_at = now(), queued_at = now() + make_interval(secs => $5)
         WHERE id = $1 AND status = 'reviewing' AND lease_owner IS NULL RETURNING id),
       c AS (
         UPDATE checkpoints SET state = $6, updated_at = now() WHERE session_id IN (SELECT id FROM s)),
       i AS (${insertIntentsSql('s', '$3', '$4')})
       SELECT count(*)::int AS n FROM s`,
      [
        id,
        edited.plan,
        intentsJson(intents),
        this.deliveryDeadlineHours,
        seconds,
        JSON.stringify(edited.checkpoint),
      ],
    );
    return rows[0].n === 1;
  }

  /**
   * Research came to rest: `delivering` (a Slack report on its way), `done`
   * (nothing to deliver), `cancelled` or `failed`, with the report and the
   * Slack writes that show it, in one statement.
   */
  async finish(
    id: string,
    to: 'delivering' | 'done' | 'cancelled' | 'failed',
    ending: RestingRecord,
    owner: string | undefined,
    intents: OutboxIntent[] = [],
  ): Promise<void> {
    await this.move(id, to, { owner, ending, intents });
  }

  /**
   * The requester answered (or skipped) the questions: the answered state
   * becomes the checkpoint and the session goes back to the queue, only once
   * (a second answer or a double click finds it no longer clarifying).
   */
  async requeueAnswered(answered: Checkpoint, intents: OutboxIntent[] = []): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET status = $5, queued_at = now(), updated_at = now()
         WHERE id = $1 AND status = ANY($6::text[]) AND cancel_requested_at IS NULL
         RETURNING id)
       ${upsertCheckpointSql},
       i AS (${insertIntentsSql('s', '$3', '$4')})
       SELECT count(*)::int AS n FROM s`,
      [
        answered.sessionId,
        JSON.stringify(answered),
        intentsJson(intents),
        this.deliveryDeadlineHours,
        'queued',
        movesTo('queued', ['clarifying']),
      ],
    );
    return rows[0].n === 1;
  }

  /**
   * Cancels a session waiting for answers or a start (no worker holds it, or
   * `holder`, the process showing it, does); true only the first time.
   */
  async cancelWaiting(
    id: string,
    by: string,
    intents: OutboxIntent[] = [],
    holder?: string,
  ): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET status = $5, cancelled_by = $2, cancel_requested_at = now(),
           updated_at = now(), finished_at = now()
         -- A reviewed plan a worker holds is starting: that one is cancelled through its worker.
         WHERE id = $1 AND status = ANY($6::text[])
           AND (lease_owner IS NULL OR status <> 'reviewing' OR lease_owner = $7)
         RETURNING id),
       i AS (${insertIntentsSql('s', '$3', '$4')})
       SELECT count(*)::int AS n FROM s`,
      [
        id,
        by,
        intentsJson(intents),
        this.deliveryDeadlineHours,
        'cancelled',
        movesTo('cancelled', ['clarifying', 'reviewing']),
        holder ?? null,
      ],
    );
    return rows[0].n === 1;
  }

  /** Clarifications nobody answered in time expire; returns their ids so surfaces can say so. */
  async expireClarifications(olderThanHours: number): Promise<string[]> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET status = $2, finished_at = now(), updated_at = now()
       WHERE status = ANY($3::text[]) AND updated_at < now() - make_interval(hours => $1)
       RETURNING id`,
      [olderThanHours, 'expired', movesTo('expired', ['clarifying'])],
    );
    return rows.map((r) => r.id);
  }

  /**
   * A delivering session with no essential write left pending: `done` when
   * every one reached the thread or the requester's DMs (the report is in
   * front of the reader; final edits and reactions may still follow),
   * `undeliverable` otherwise. Returns the new status, if it moved.
   */
  async settleDelivery(id: string): Promise<SessionStatus | null> {
    if (await this.failUnopened(id)) return 'failed';
    const { rows } = await this.pool.query(
      `WITH lost AS (
         SELECT o.last_error FROM slack_outbox o WHERE o.session_id = $1 AND o.essential AND o.state = 'failed'
           AND NOT EXISTS (SELECT 1 FROM slack_outbox d WHERE d.session_id = $1
             AND d.key = 'dm:' || o.key AND d.state = 'sent')
         -- The last write that was really tried says most about why.
         ORDER BY o.attempts = 0, o.id DESC LIMIT 1)
       UPDATE sessions s SET updated_at = now(), finished_at = now(),
         status = CASE WHEN EXISTS (SELECT 1 FROM lost) THEN $2 ELSE $3 END,
         delivery_note = COALESCE((SELECT 'Slack did not take the report: ' || COALESCE(last_error, 'unknown error')
                                   FROM lost), delivery_note)
       WHERE s.id = $1 AND s.status = ANY($4::text[]) AND s.status = ANY($5::text[])
         AND NOT EXISTS (SELECT 1 FROM slack_outbox o WHERE o.session_id = $1 AND o.essential
                           AND o.state = 'pending')
       RETURNING status`,
      [
        id,
        'undeliverable',
        'done',
        movesTo('undeliverable', ['delivering']),
        movesTo('done', ['delivering']),
      ],
    );
    return (rows[0]?.status as SessionStatus | undefined) ?? null;
  }

  /** A queued Slack session whose thread Slack would not post (a scheduled run's root) fails, rather than wait. */
  private async failUnopened(id: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT o.last_error FROM slack_outbox o JOIN sessions s ON s.id = o.session_id
       WHERE s.id = $1 AND s.status = 'queued' AND s.thread_ts IS NULL
         AND o.role = 'root' AND o.op = 'post' AND o.state = 'failed'`,
      [id],
    );
    if (!rows[0]) return false;
    const error = `its thread could not be posted in the channel (${rows[0].last_error ?? 'unknown error'})`;
    await this.move(id, 'failed', { from: ['queued'], ending: { error } });
    return true;
  }

  /** How the report reached the requester, or why it could not: shown by `sessions show` and the status list. */
  async noteDelivery(id: string, note: string): Promise<void> {
    await this.pool.query('UPDATE sessions SET delivery_note = $2 WHERE id = $1', [id, note]);
  }

  private async move(
    id: string,
    to: SessionStatus,
    options: {
      owner?: string;
      from?: SessionStatus[];
      ending?: RestingRecord;
      intents?: OutboxIntent[];
      /** Back to the queue, due in this many seconds, the lease let go. */
      dueInSeconds?: number;
    },
  ): Promise<void> {
    const { owner, ending = {}, intents = [] } = options;
    const from = movesTo(to, options.from);
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET status = $2,
           plan = COALESCE($3, plan),
           report = COALESCE($4::jsonb, report),
           error = COALESCE($5, error),
           cost_usd = COALESCE($12::float8, cost_usd),
           updated_at = now(),
           finished_at = CASE WHEN $2 = ANY($6::text[]) THEN now() ELSE finished_at END,
           queued_at = CASE WHEN $11::float8 IS NULL THEN queued_at ELSE now() + make_interval(secs => $11) END,
           lease_owner = CASE WHEN $11::float8 IS NULL THEN lease_owner END,
           lease_expires_at = CASE WHEN $11::float8 IS NULL THEN lease_expires_at END
         WHERE id = $1 AND status = ANY($7::text[]) AND ($8::text IS NULL OR lease_owner = $8)
         RETURNING id),
       i AS (${insertIntentsSql('s', '$9', '$10')})
       SELECT count(*)::int AS n FROM s`,
      [
        id,
        to,
        ending.plan ?? null,
        ending.report ? JSON.stringify(ending.report) : null,
        ending.error ?? null,
        FINISHED,
        from,
        owner ?? null,
        intentsJson(intents),
        this.deliveryDeadlineHours,
        options.dueInSeconds ?? null,
        ending.costUsd ?? ending.report?.costUsd ?? null,
      ],
    );
    if (rows[0].n === 1) return;
    const { rows: now } = await this.pool.query('SELECT status, lease_owner FROM sessions WHERE id = $1', [
      id,
    ]);
    if (owner && now[0]?.lease_owner !== owner) throw new LeaseLostError(id);
    if (now[0]?.status === to) return;
    throw new Error(`session ${id} cannot move from ${now[0]?.status ?? 'nowhere'} to ${to}`);
  }
}
