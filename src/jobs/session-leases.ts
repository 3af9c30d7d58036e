import type pg from 'pg';
import { RUNNABLE } from '../sessions/records/session-status.js';

/**
 * Due, runnable and held by no live lease; `statuses` names the parameter
 * holding RUNNABLE. A Slack session waits for its thread: a scheduled run's
 * root is posted through the outbox, and its ts is the thread's.
 */
const waiting = (statuses: string) =>
  `status = ANY(${statuses}::text[]) AND queued_at <= now() AND (lease_expires_at IS NULL OR lease_expires_at < now())
   AND (origin <> 'slack' OR thread_ts IS NOT NULL)`;

export interface Claim {
  id: string;
  attempts: number;
}

export interface Heartbeat {
  /** False when another worker took the session over (our lease had run out): stop at once. */
  held: boolean;
  cancelRequested: boolean;
}

/**
 * The job queue is the sessions table: a runnable session is claimed by taking
 * its lease (owner + expiry) and kept by renewing it. A worker that dies stops
 * renewing, its lease runs out, and the next claim resumes the session from its
 * checkpoint, so recovery takes one lease period rather than a session's whole
 * time budget. `FOR UPDATE SKIP LOCKED` keeps two claims from taking one row.
 */
export class SessionLeases {
  /** `origins`: the kinds of session this worker can serve (one without Slack credentials takes only CLI ones). */
  constructor(
    private readonly pool: pg.Pool,
    readonly owner: string,
    private readonly leaseMs: number,
    private readonly origins: ('slack' | 'cli')[] = ['slack', 'cli'],
  ) {}

  /**
   * Only sessions submitted to the queue are jobs: a session the CLI runs in its own process is never taken.
   * `running` are the sessions this worker runs now: when its own lease lapsed (a stalled event loop, a slow
   * database) it must not take one of them a second time; its next heartbeat renews it, or finds it taken.
   */
  async claim(running: readonly string[] = []): Promise<Claim | null> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2),
         attempts = attempts + 1, updated_at = now()
       WHERE id = (
         SELECT id FROM sessions
         WHERE ${waiting('$4')}
           AND origin = ANY($3::text[])
           AND NOT (id = ANY($5::uuid[]))
         ORDER BY queued_at NULLS LAST, created_at
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
       RETURNING id, attempts`,
      [this.owner, this.leaseMs / 1000, this.origins, RUNNABLE, running],
    );
    return rows[0] ? { id: rows[0].id, attempts: rows[0].attempts } : null;
  }

  /** Sessions any worker could claim now but none has: the queue's depth, for /metrics. */
  async queueDepth(): Promise<number> {
    const { rows } = await this.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE ${waiting('$1')}`, [
      RUNNABLE,
    ]);
    return rows[0].n;
  }

  async heartbeat(id: string): Promise<Heartbeat> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET lease_expires_at = now() + make_interval(secs => $3)
       WHERE id = $1 AND lease_owner = $2
       RETURNING cancel_requested_at IS NOT NULL AS cancel`,
      [id, this.owner, this.leaseMs / 1000],
    );
    return rows[0]
      ? { held: true, cancelRequested: rows[0].cancel }
      : { held: false, cancelRequested: false };
  }

  /** Gives the session back (draining, or it came to rest); a no-op when someone else holds it. */
  async release(id: string): Promise<void> {
    await this.pool.query(
      'UPDATE sessions SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2',
      [id, this.owner],
    );
  }
}
