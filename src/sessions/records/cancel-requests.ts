import type pg from 'pg';
import { RESEARCHING } from './session-status.js';

/** The Postgres notification channel on which cancel requests are announced (payload: the session id). */
export const CANCEL_CHANNEL = 'session_cancel';

/**
 * Asking a running session to stop: the request is recorded with the session
 * and announced, so the process running it (a worker, a terminal) stops at
 * once wherever it runs; its heartbeat is the fallback.
 */
export class CancelRequests {
  private readonly listeners = new Set<(sessionId: string) => void>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Hears cancel requests made through this object, in this process (also on
   * the embedded database, whose socket does not pass notifications on).
   * Returns the unsubscribe.
   */
  on(listener: (sessionId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks whichever worker runs the session to stop (it notices at its next heartbeat). */
  async request(id: string, by: string): Promise<boolean> {
    // The notification wakes the worker running it at once, wherever it runs (its heartbeat is the fallback).
    const { rows } = await this.pool.query(
      `WITH s AS (
         UPDATE sessions SET cancel_requested_at = now(), cancelled_by = $2, updated_at = now()
         WHERE id = $1 AND status = ANY($3::text[]) AND cancel_requested_at IS NULL
         RETURNING id)
       SELECT pg_notify('${CANCEL_CHANNEL}', id::text) FROM s`,
      [id, by, RESEARCHING],
    );
    if (rows.length === 1) for (const listener of this.listeners) listener(id);
    return rows.length === 1;
  }
}
