import type pg from 'pg';

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

  /** Only sessions submitted to the queue are jobs: a session the CLI runs in its own process is never taken. */
  async claim(): Promise<Claim | null> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2),
         attempts = attempts + 1,
         status = CASE WHEN status = 'queued' THEN 'running' ELSE status END,
         updated_at = now()
       WHERE id = (
         SELECT id FROM sessions
         WHERE status IN ('queued', 'running', 'reporting')
           AND queued_at IS NOT NULL
           AND origin = ANY($3::text[])
           AND (lease_expires_at IS NULL OR lease_expires_at < now())
         ORDER BY queued_at NULLS LAST, created_at
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
       RETURNING id, attempts`,
      [this.owner, this.leaseMs / 1000, this.origins],
    );
    return rows[0] ? { id: rows[0].id, attempts: rows[0].attempts } : null;
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

  async requestCancel(id: string, by: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET cancel_requested_at = now(), cancelled_by = $2, updated_at = now()
       WHERE id = $1 AND status IN ('clarifying', 'queued', 'running', 'reporting') AND cancel_requested_at IS NULL`,
      [id, by],
    );
    return rowCount === 1;
  }

  /** Sessions queued ahead of this one and not yet picked up by a worker. */
  async queuePosition(id: string): Promise<number> {
    const { rows } = await this.pool.query(
      `SELECT count(*)::int AS ahead FROM sessions s, sessions me
       WHERE me.id = $1 AND s.status = 'queued' AND s.lease_owner IS NULL AND s.queued_at < me.queued_at`,
      [id],
    );
    return rows[0].ahead;
  }

  /** Sessions of this person that are not finished: for the per-user limit. */
  async activeCount(requester: string): Promise<number> {
    const { rows } = await this.pool.query(
      `SELECT count(*)::int AS n FROM sessions
       WHERE requester = $1 AND status IN ('clarifying', 'queued', 'running', 'reporting')`,
      [requester],
    );
    return rows[0].n;
  }

  /** Clarifications nobody answered in time expire; returns their ids so surfaces can say so. */
  async expireClarifications(olderThanHours: number): Promise<string[]> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET status = 'expired', finished_at = now(), updated_at = now()
       WHERE status = 'clarifying' AND updated_at < now() - make_interval(hours => $1)
       RETURNING id`,
      [olderThanHours],
    );
    return rows.map((r) => r.id);
  }
}
