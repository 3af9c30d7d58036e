import type { Queryable } from '../../store/database.js';
import { HOLDS_SPENDING } from './session-status.js';

export interface Spend {
  /** Sessions that finished in the period. */
  sessions: number;
  tokens: number;
  /** What they cost (a model without a price counts nothing). */
  costUsd: number;
  /** Of the sessions, those whose cost is unknown (a model without a price): their reports say "cost n/a". */
  unpriced: number;
  /** What unfinished sessions and calls under way may still spend: their reservations, held until they finish. */
  reservedUsd: number;
}

/** Whose spending: one person's, a workspace's (a Slack team), or everyone's (the terminal's workspace). */
export interface SpendScope {
  requester?: string;
  teamId?: string | null;
  /** One channel's (its daily budget, a channel policy's). */
  channelId?: string;
}

/**
 * What research cost (and the questions asked of its reports): the sessions that finished since the start of the day
 * or month (UTC) at their real cost, and every unfinished one at its
 * reservation, so sessions running at once cannot each see the whole cap.
 */
export class SpendStore {
  constructor(private readonly db: Queryable) {}

  async since(scope: SpendScope, period: 'day' | 'month', except?: string): Promise<Spend> {
    // A session that finished research but is still being delivered has its cost already (finished_at waits).
    // Questions asked of reports, and other paid calls outside research (paid_calls), counted where and when made.
    const { rows } = await this.db.query(
      `WITH since AS (SELECT date_trunc($1, now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS at),
       research AS (
         SELECT count(*) FILTER (WHERE NOT s.open)::int AS sessions,
           count(*) FILTER (WHERE NOT s.open
             AND COALESCE(s.cost_usd, (s.report->>'costUsd')::float8) IS NULL)::int AS unpriced,
           COALESCE(sum(COALESCE(s.cost_usd, (s.report->>'costUsd')::float8)) FILTER (WHERE NOT s.open), 0) AS cost,
           COALESCE(sum(s.reserved_usd) FILTER (WHERE s.open), 0) AS reserved,
           COALESCE(sum((SELECT sum(u.input_tokens + u.output_tokens) FROM session_usage u
                         WHERE u.session_id = s.id)) FILTER (WHERE NOT s.open), 0)::float8 AS tokens
         FROM (SELECT *, status = ANY($5::text[]) AS open FROM sessions) s, since
         WHERE (s.open OR COALESCE(s.finished_at, s.updated_at) >= since.at)
           AND ($2::text IS NULL OR s.requester = $2)
           AND ($3::text IS NULL OR s.team_id = $3)
           AND ($4::uuid IS NULL OR s.id <> $4)
           AND ($6::text IS NULL OR s.channel_id = $6)),
       asked AS (
         SELECT COALESCE(sum(a.cost_usd), 0) AS cost, COALESCE(sum(a.tokens), 0)::float8 AS tokens
         FROM (SELECT a.created_at, a.asker, a.team_id, a.cost_usd, a.input_tokens + a.output_tokens AS tokens,
                      s.channel_id
               FROM report_answers a JOIN sessions s ON s.id = a.session_id
               UNION ALL
               SELECT created_at, requester, team_id, cost_usd, tokens, channel_id FROM paid_calls) a, since
         WHERE a.created_at >= since.at
           AND ($2::text IS NULL OR a.asker = $2) AND ($3::text IS NULL OR a.team_id = $3)
           AND ($6::text IS NULL OR a.channel_id = $6)),
       held AS (
         SELECT COALESCE(sum(h.reserved_usd), 0) AS reserved FROM spend_holds h
         WHERE h.created_at > now() - interval '15 minutes'
           AND ($2::text IS NULL OR h.requester = $2) AND ($3::text IS NULL OR h.team_id = $3)
           AND ($6::text IS NULL OR h.channel_id = $6))
       SELECT r.sessions, r.unpriced, r.reserved + h.reserved AS reserved, r.cost + a.cost AS cost, r.tokens + a.tokens AS tokens
       FROM research r, asked a, held h`,
      [
        period,
        scope.requester ?? null,
        scope.teamId ?? null,
        except ?? null,
        HOLDS_SPENDING,
        scope.channelId ?? null,
      ],
    );
    const r = rows[0];
    return {
      sessions: Number(r.sessions),
      unpriced: Number(r.unpriced),
      tokens: Number(r.tokens),
      costUsd: Number(r.cost),
      reservedUsd: Number(r.reserved),
    };
  }
}
