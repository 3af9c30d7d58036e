import { withoutControls } from '../../ports/control-characters.js';
import { anyWords, anyWordTsquery } from '../../store/any-word-query.js';
import type { Queryable } from '../../store/database.js';

/** A finished report as a search lists it. */
export interface ReportMatch {
  id: string;
  origin: 'slack' | 'cli';
  teamId: string | null;
  channelId: string | null;
  threadTs: string | null;
  requester: string;
  question: string;
  createdAt: Date;
  sources: number;
  /** The canvas holding the report, when it has one. */
  canvasId: string | null;
}

/**
 * Finished reports matching `words` (no words: the latest) (Postgres full-text search over question,
 * plan and report), best first: text rank, favouring recent reports (half the
 * weight at 30 days) and ones with many cited sources. `teamId` keeps to a
 * workspace; the surface decides who may see which.
 */
export async function searchReports(
  db: Queryable,
  words: string,
  options: { teamId?: string | null; limit: number; offset?: number; sinceDays?: number; anyWord?: boolean },
): Promise<ReportMatch[]> {
  // Any of the words (a question asked again in other words), or as a search box reads them.
  const query = options.anyWord ? anyWordTsquery(5) : `websearch_to_tsquery('english', $1)`;
  // Whatever a search box sent: a NUL (which Postgres refuses in text) or a direction override searches nothing.
  const searched = withoutControls(words);
  const { rows } = await db.query(
    `SELECT s.id, s.origin, s.team_id, s.channel_id, s.thread_ts, s.requester, s.question, s.created_at,
       COALESCE(jsonb_array_length(s.report -> 'sources'), 0) AS sources,
       (SELECT m.file_id FROM slack_messages m WHERE m.session_id = s.id AND m.role = 'canvas') AS canvas_id
     FROM sessions s, ${query} q
     WHERE ($6::boolean OR s.search_tsv @@ q) AND s.report IS NOT NULL AND s.status IN ('done', 'delivering')
       AND ($2::text IS NULL OR s.team_id = $2)
       AND ($4::float8 IS NULL OR s.created_at >= now() - make_interval(days => $4::int))
       AND $1::text IS NOT NULL AND $5::text[] IS NOT NULL
     ORDER BY ts_rank_cd(s.search_tsv, q)
       * (1 + ln(1 + COALESCE(jsonb_array_length(s.report -> 'sources'), 0)) / 4)
       / (1 + extract(epoch FROM now() - s.created_at) / (30 * 86400)) DESC, s.created_at DESC
     LIMIT $3 OFFSET $7`,
    [
      searched,
      options.teamId ?? null,
      options.limit,
      options.sinceDays ?? null,
      anyWords(searched),
      searched.trim() === '',
      options.offset ?? 0,
    ],
  );
  return rows.map((r) => ({
    id: r.id,
    origin: r.origin,
    teamId: r.team_id,
    channelId: r.channel_id,
    threadTs: r.thread_ts,
    requester: r.requester,
    question: r.question,
    createdAt: new Date(r.created_at),
    sources: Number(r.sources),
    canvasId: r.canvas_id,
  }));
}
