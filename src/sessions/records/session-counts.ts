import type pg from 'pg';

/** How many sessions the database holds in each status, for /metrics. */
export async function sessionsByStatus(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query('SELECT status, count(*)::int AS n FROM sessions GROUP BY status');
  return Object.fromEntries(rows.map((r) => [r.status as string, r.n as number]));
}
