import type pg from 'pg';
import type { PastRun } from '../../engine/estimate.js';

/** The latest complete (not partial) reports' durations and costs (shown, and counted against the caps) by one backend, for pre-flight estimates. */
export async function pastRuns(pool: pg.Pool, backend: string, limit = 30): Promise<PastRun[]> {
  const { rows } = await pool.query(
    `SELECT (s.report->>'durationMs')::float8 AS duration, (s.report->>'costUsd')::float8 AS cost, s.cost_usd AS spend
     FROM sessions s LEFT JOIN checkpoints c ON c.session_id = s.id
     WHERE s.status = 'done' AND s.report IS NOT NULL AND jsonb_typeof(s.report->'partial') = 'null'
       AND COALESCE(c.state->>'backend', 'agents') = $2
     ORDER BY s.finished_at DESC NULLS LAST LIMIT $1`,
    [limit, backend],
  );
  return rows.map((r) => ({
    durationMs: Number(r.duration),
    costUsd: r.cost === null ? null : Number(r.cost),
    spendUsd: r.spend === null ? null : Number(r.spend),
  }));
}
