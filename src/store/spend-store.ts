import type pg from 'pg';

export interface Spend {
  sessions: number;
  tokens: number;
  /** Of the sessions with a known cost (a model without a price counts nothing). */
  costUsd: number;
}

/** Whose spending: one person's, a workspace's (a Slack team), or everyone's (the terminal's workspace). */
export interface SpendScope {
  requester?: string;
  teamId?: string | null;
}

/**
 * What research cost, from the sessions that finished (their report's cost
 * and their recorded token use), since the start of the day or month (UTC).
 */
export class SpendStore {
  constructor(private readonly pool: pg.Pool) {}

  async since(scope: SpendScope, period: 'day' | 'month', except?: string): Promise<Spend> {
    const { rows } = await this.pool.query(
      `SELECT count(*)::int AS sessions,
         COALESCE(sum((s.report->>'costUsd')::float8), 0) AS cost,
         COALESCE(sum((SELECT sum(u.input_tokens + u.output_tokens) FROM session_usage u
                       WHERE u.session_id = s.id)), 0)::float8 AS tokens
       FROM sessions s
       WHERE s.finished_at >= date_trunc($1, now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
         AND ($2::text IS NULL OR s.requester = $2)
         AND ($3::text IS NULL OR s.team_id = $3)
         AND ($4::uuid IS NULL OR s.id <> $4)`,
      [period, scope.requester ?? null, scope.teamId ?? null, except ?? null],
    );
    const r = rows[0];
    return { sessions: Number(r.sessions), tokens: Number(r.tokens), costUsd: Number(r.cost) };
  }
}
