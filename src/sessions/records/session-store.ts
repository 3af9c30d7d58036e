import type pg from 'pg';
import type { Checkpoint, ResearchEvent, Usage } from '../../ports/research.js';
import { emptyUsage } from '../../ports/usage.js';
import type { Queryable } from '../../store/database.js';
import { LeaseLostError } from './lease-lost-error.js';
import { type SessionRow, toRow } from './session-row.js';
import { RESEARCHING } from './session-status.js';

/** Events worth keeping: streamed text deltas are dropped, their final text arrives in plan_done / report_done. */
export function isStoredEvent(event: ResearchEvent): boolean {
  return event.type !== 'plan_delta' && event.type !== 'report_delta';
}

export interface SlackMessageRef {
  channelId: string;
  ts?: string;
  fileId?: string;
  /** A streamed message (chat.startStream): appended to and stopped rather than edited. */
  streaming?: boolean;
}

export type { SessionRow } from './session-row.js';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sessions and what they own, on Postgres or PGlite. One method, one statement (or one short transaction). */
export class SessionStore {
  constructor(private readonly pool: pg.Pool) {}

  /** The session, or null (an id that is no session's, or no id at all: a click's value may be anything). */
  async get(id: string): Promise<SessionRow | null> {
    if (!SESSION_ID.test(id)) return null;
    const { rows } = await this.pool.query('SELECT * FROM sessions WHERE id = $1', [id]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Looks a session up by a prefix of its id, as people type them from a footer. */
  async findByIdPrefix(prefix: string): Promise<SessionRow[]> {
    if (!/^[0-9a-f-]{4,36}$/i.test(prefix)) return [];
    const { rows } = await this.pool.query(
      'SELECT * FROM sessions WHERE id::text LIKE $1 ORDER BY created_at DESC LIMIT 5',
      [`${prefix.toLowerCase()}%`],
    );
    return rows.map(toRow);
  }

  async listRecent(options: {
    requester?: string;
    limit: number;
    statuses?: string[];
  }): Promise<SessionRow[]> {
    const { rows } = await this.pool.query(
      `SELECT * FROM sessions WHERE ($1::text IS NULL OR requester = $1)
         AND ($3::text[] IS NULL OR status = ANY($3::text[]))
       ORDER BY created_at DESC LIMIT $2`,
      [options.requester ?? null, options.limit, options.statuses ?? null],
    );
    return rows.map(toRow);
  }

  /** The sessions of one Slack thread, latest turn first. */
  async threadSessions(teamId: string, channelId: string, threadTs: string): Promise<SessionRow[]> {
    const { rows } = await this.pool.query(
      'SELECT * FROM sessions WHERE team_id = $1 AND channel_id = $2 AND thread_ts = $3 ORDER BY turn DESC',
      [teamId, channelId, threadTs],
    );
    return rows.map(toRow);
  }

  /** This person's unfinished sessions, newest first. */
  async activeSessions(requester: string): Promise<SessionRow[]> {
    const { rows } = await this.pool.query(
      'SELECT * FROM sessions WHERE requester = $1 AND status = ANY($2::text[]) ORDER BY created_at DESC',
      [requester, RESEARCHING],
    );
    return rows.map(toRow);
  }

  /** Saves the latest state together with how far the event log had got. */
  async saveCheckpoint(checkpoint: Checkpoint, owner?: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO checkpoints (session_id, state, event_seq)
       SELECT $1, $2, (SELECT COALESCE(MAX(seq), 0) FROM session_events WHERE session_id = $1)
       WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = $1 AND lease_owner = $3)
       ON CONFLICT (session_id) DO UPDATE SET
         state = EXCLUDED.state, event_seq = EXCLUDED.event_seq, updated_at = now()`,
      [checkpoint.sessionId, JSON.stringify(checkpoint), owner ?? null],
    );
    if (owner && rowCount === 0) throw new LeaseLostError(checkpoint.sessionId);
  }

  /** Drops events a lost attempt wrote after the last checkpoint, so a resumed run does not repeat them. */
  async truncateEventsToCheckpoint(id: string): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM session_events WHERE session_id = $1
         AND seq > COALESCE((SELECT event_seq FROM checkpoints WHERE session_id = $1), 0)`,
      [id],
    );
    return rowCount ?? 0;
  }

  async loadCheckpoint(id: string): Promise<Checkpoint | null> {
    const { rows } = await this.pool.query('SELECT state FROM checkpoints WHERE session_id = $1', [id]);
    return rows[0] ? storedCheckpoint(rows[0].state) : null;
  }

  /** Appends in order after whatever the session already has (only while holding the lease, given `owner`). */
  async appendEvents(id: string, events: ResearchEvent[], owner?: string): Promise<void> {
    if (events.length === 0) return;
    const { rowCount } = await this.pool.query(
      `INSERT INTO session_events (session_id, seq, type, payload)
       SELECT $1, base.n + e.ord, e.type, e.payload
       FROM (SELECT COALESCE(MAX(seq), 0) AS n FROM session_events WHERE session_id = $1) base,
            unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS e(type, payload, ord)
       WHERE $4::text IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = $1 AND lease_owner = $4)`,
      [id, events.map((e) => e.type), events.map((e) => JSON.stringify(e)), owner ?? null],
    );
    if (owner && rowCount === 0) throw new LeaseLostError(id);
  }

  async listEvents(id: string): Promise<{ seq: number; event: ResearchEvent }[]> {
    const { rows } = await this.pool.query(
      'SELECT seq, payload FROM session_events WHERE session_id = $1 ORDER BY seq',
      [id],
    );
    return rows.map((r) => ({ seq: r.seq, event: r.payload as ResearchEvent }));
  }

  async saveUsage(id: string, usage: Usage): Promise<void> {
    if (usage.hostedSearches)
      await this.pool.query('UPDATE sessions SET hosted_searches = $2 WHERE id = $1', [
        id,
        usage.hostedSearches,
      ]);
    if (usage.models.length === 0) return;
    await this.pool.query(
      `INSERT INTO session_usage (session_id, purpose, model, calls, input_tokens, output_tokens, cached_input_tokens)
       SELECT $1, u.purpose, u.model, u.calls, u.input_tokens, u.output_tokens, u.cached_input_tokens
       FROM unnest($2::text[], $3::text[], $4::int[], $5::bigint[], $6::bigint[], $7::bigint[])
         AS u(purpose, model, calls, input_tokens, output_tokens, cached_input_tokens)
       ON CONFLICT (session_id, purpose, model) DO UPDATE SET
         calls = EXCLUDED.calls, input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens,
         cached_input_tokens = EXCLUDED.cached_input_tokens`,
      [
        id,
        usage.models.map((m) => m.purpose),
        usage.models.map((m) => m.model),
        usage.models.map((m) => m.calls),
        usage.models.map((m) => m.inputTokens),
        usage.models.map((m) => m.outputTokens),
        usage.models.map((m) => m.cachedInputTokens ?? 0),
      ],
    );
  }

  /** What a session's model calls used, per phase and model, as saved when it ended. */
  async loadUsage(id: string): Promise<Usage> {
    const [{ rows }, searches] = await Promise.all([
      this.pool.query(
        `SELECT purpose, model, calls, input_tokens, output_tokens, cached_input_tokens
         FROM session_usage WHERE session_id = $1 ORDER BY purpose, model`,
        [id],
      ),
      this.pool.query('SELECT hosted_searches FROM sessions WHERE id = $1', [id]),
    ]);
    const hostedSearches = Number(searches.rows[0]?.hosted_searches ?? 0);
    return {
      ...emptyUsage(),
      ...(hostedSearches ? { hostedSearches } : {}),
      models: rows.map((r) => ({
        purpose: r.purpose,
        model: r.model,
        calls: r.calls,
        inputTokens: Number(r.input_tokens),
        outputTokens: Number(r.output_tokens),
        cachedInputTokens: Number(r.cached_input_tokens),
      })),
    };
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

  /** Where a session's Slack message (or uploaded file) is, by thread role. */
  async recordSlackMessage(
    id: string,
    role: string,
    where: { channelId: string; ts?: string; fileId?: string },
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO slack_messages (session_id, role, channel_id, ts, file_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (session_id, role) DO UPDATE SET channel_id = $3, ts = $4, file_id = $5`,
      [id, role, where.channelId, where.ts ?? null, where.fileId ?? null],
    );
  }

  async slackMessages(id: string): Promise<Map<string, SlackMessageRef>> {
    return slackMessagesOf(this.pool, id);
  }

  /** True the first time a key is seen: Slack retries and double clicks arrive as repeats. */
  async claimEvent(key: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'INSERT INTO processed_events (event_key) VALUES ($1) ON CONFLICT DO NOTHING',
      [key],
    );
    return rowCount === 1;
  }

  /** The claimed request was turned down: a later attempt may be made. */
  async releaseEvent(key: string): Promise<void> {
    await this.pool.query('DELETE FROM processed_events WHERE event_key = $1', [key]);
  }

  async purgeProcessedEvents(olderThanHours: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM processed_events WHERE created_at < now() - make_interval(hours => $1)',
      [olderThanHours],
    );
    return rowCount ?? 0;
  }
}

/** Checkpoints written before they recorded their backend were all written by the agents. */
function storedCheckpoint(stored: Record<string, unknown>): Checkpoint {
  return { ...stored, backend: stored.backend ?? 'agents' } as Checkpoint;
}

/** What a session owns in Slack, by role (on the pool, or inside a transaction). */
export async function slackMessagesOf(db: Queryable, id: string): Promise<Map<string, SlackMessageRef>> {
  const { rows } = await db.query(
    'SELECT role, channel_id, ts, file_id, streaming FROM slack_messages WHERE session_id = $1',
    [id],
  );
  return new Map(
    rows.map((r) => [
      r.role as string,
      {
        channelId: r.channel_id,
        ts: r.ts ?? undefined,
        fileId: r.file_id ?? undefined,
        ...(r.streaming ? { streaming: true } : {}),
      },
    ]),
  );
}
