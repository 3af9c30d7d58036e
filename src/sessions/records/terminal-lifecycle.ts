import type pg from 'pg';
import type { Checkpoint } from '../../ports/research.js';
import { upsertCheckpointSql } from './checkpoint-upsert.js';
import { movesTo } from './session-status.js';

/** A terminal's own sessions: run in its process (never queued), by the CLI's requester. */
const FOREGROUND = `origin = 'cli' AND queued_at IS NULL`;

/**
 * The status moves of sessions a terminal runs in its own process: the
 * lifecycle's (SessionLifecycle) for those sessions, guarded by the same
 * table as every other move (movesTo). While `ask` runs it holds the
 * session's lease and renews it (SessionLeases.heartbeat); a process that dies
 * (the terminal closed, kill -9) stops renewing, and the next look at the
 * sessions finds the lease lapsed and rests the session `interrupted`, which
 * the person can resume, cancel or leave; it is never left `running`.
 */
export class TerminalLifecycle {
  constructor(
    private readonly pool: pg.Pool,
    private readonly leaseMs: number,
  ) {}

  /** Rests every foreground session whose process went away (no live lease); their ids. */
  async interruptLapsed(): Promise<string[]> {
    const { rows } = await this.pool.query(
      `UPDATE sessions SET status = $2, lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
       WHERE ${FOREGROUND} AND status = ANY($1::text[])
         AND (lease_expires_at IS NULL OR lease_expires_at < now())
       RETURNING id`,
      [movesTo('interrupted'), 'interrupted'],
    );
    return rows.map((r) => r.id as string);
  }

  /** This process is going away with the session unfinished (the terminal closed, SIGTERM): resumable. */
  async interrupt(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET status = $4, lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
       WHERE id = $1 AND lease_owner = $2 AND status = ANY($3::text[])`,
      [id, owner, movesTo('interrupted'), 'interrupted'],
    );
    return rowCount === 1;
  }

  /** `resume`: an interrupted session runs again in this process, under its lease; false if it was not interrupted. */
  async resume(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET status = $5, lease_owner = $2,
         lease_expires_at = now() + make_interval(secs => $3), updated_at = now()
       WHERE id = $1 AND ${FOREGROUND} AND status = ANY($4::text[])`,
      [id, owner, this.leaseMs / 1000, movesTo('running', ['interrupted']), 'running'],
    );
    return rowCount === 1;
  }

  /**
   * The requester answered at this process's prompt: the answered state becomes the checkpoint and research goes
   * on there, in one statement; false when the session no longer waits (it
   * was cancelled from elsewhere) or the lease is no longer this process's.
   */
  async answered(answered: Checkpoint, owner: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET status = $3, updated_at = now()
         WHERE id = $1 AND ${FOREGROUND} AND status = ANY($4::text[]) AND lease_owner = $5
         RETURNING id)
       ${upsertCheckpointSql}
       SELECT count(*)::int AS n FROM s`,
      [
        answered.sessionId,
        JSON.stringify(answered),
        'running',
        movesTo('running', ['clarifying']),
        owner ?? null,
      ],
    );
    return rows[0].n === 1;
  }

  /** `cancel` of an interrupted session: it ends cancelled at once, keeping what its checkpoint has. */
  async cancelInterrupted(id: string, by: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET status = $4, cancelled_by = $2, cancel_requested_at = now(),
         finished_at = now(), updated_at = now()
       WHERE id = $1 AND status = ANY($3::text[])`,
      [id, by, movesTo('cancelled', ['interrupted']), 'cancelled'],
    );
    return rowCount === 1;
  }
}
