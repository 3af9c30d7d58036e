import type pg from 'pg';
import type { PastRun } from '../engine/estimate.js';

/** The latest complete (not partial) reports' durations and costs, for pre-flight estimates. */
export async function pastRuns(pool: pg.Pool, limit = 30): Promise<PastRun[]> {
  const { rows } = await pool.query(
    `SELECT (report->>'durationMs')::float8 AS duration, (report->>'costUsd')::float8 AS cost
     FROM sessions
     WHERE status = 'done' AND report IS NOT NULL AND jsonb_typeof(report->'partial') = 'null'
     ORDER BY finished_at DESC NULLS LAST LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    durationMs: Number(r.duration),
    costUsd: r.cost === null ? null : Number(r.cost),
  }));
}
