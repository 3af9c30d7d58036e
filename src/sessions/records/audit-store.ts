import type pg from 'pg';

/** What is recorded: a session's moves, asks, schedules' changes and the files read for someone. */
export type AuditAction =
  | 'session.started'
  | 'session.cancelled'
  | 'session.steered'
  | 'session.plan_edited'
  | 'session.deleted'
  | 'report.asked'
  | 'schedule.created'
  | 'schedule.changed'
  | 'schedule.paused'
  | 'schedule.resumed'
  | 'schedule.removed'
  | 'file.read'
  | 'policy.changed';

/** One action: who (a Slack user id, `cli:<user>`, `scheduler`), where, on what, at what cost. */
export interface AuditEvent {
  actor: string;
  action: AuditAction;
  teamId?: string | null;
  channelId?: string | null;
  sessionId?: string | null;
  scheduleId?: string | null;
  costUsd?: number | null;
  /** Ids, counts, names and outcomes: never a secret, a question's or a page's text. */
  detail?: Record<string, string | number | boolean | null>;
}

export interface AuditRow extends Required<Omit<AuditEvent, 'detail'>> {
  at: Date;
  detail: Record<string, unknown>;
}

/** Records an action (awaited, so a short command's actions are written before it exits); never rejects. */
export type RecordAudit = (event: AuditEvent) => Promise<void>;

/** The trail as the session's use cases write to it. */
export function auditTrail(
  store: Pick<AuditStore, 'record'>,
  log: { warn: (obj: object, msg: string) => void },
): RecordAudit {
  // A failure to record is logged with what it was about, never the action's failure.
  return (event) =>
    store
      .record(event)
      .catch((err) =>
        log.warn(
          { err, sessionId: event.sessionId, scheduleId: event.scheduleId, action: event.action },
          'an action could not be written to the audit trail',
        ),
      );
}

export interface AuditQuery {
  since?: Date;
  teamId?: string;
  channelId?: string;
  actor?: string;
  limit?: number;
}

/**
 * The audit trail (append-only: the table refuses updates). Recording never
 * fails the action it records: a trail that cannot be written is the
 * caller's to log.
 */
export class AuditStore {
  constructor(private readonly pool: pg.Pool) {}

  async record(event: AuditEvent): Promise<void> {
    await this.pool.query(
      `INSERT INTO audit_events (actor, action, team_id, channel_id, session_id, schedule_id, cost_usd, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        event.actor,
        event.action,
        event.teamId ?? null,
        event.channelId ?? null,
        event.sessionId ?? null,
        event.scheduleId ?? null,
        event.costUsd ?? null,
        JSON.stringify(event.detail ?? {}),
      ],
    );
  }

  /** Oldest first, the newest `limit` (default 10,000) of those matching. */
  async list(query: AuditQuery = {}): Promise<AuditRow[]> {
    const { rows } = await this.pool.query(
      `SELECT * FROM (
         SELECT * FROM audit_events
          WHERE ($1::timestamptz IS NULL OR at >= $1)
            AND ($2::text IS NULL OR channel_id = $2)
            AND ($3::text IS NULL OR actor = $3)
            AND ($5::text IS NULL OR team_id = $5)
          ORDER BY id DESC LIMIT $4) newest
        ORDER BY id`,
      [
        query.since ?? null,
        query.channelId ?? null,
        query.actor ?? null,
        query.limit ?? 10_000,
        query.teamId ?? null,
      ],
    );
    return rows.map((r) => ({
      at: r.at,
      actor: r.actor,
      action: r.action,
      teamId: r.team_id,
      channelId: r.channel_id,
      sessionId: r.session_id,
      scheduleId: r.schedule_id,
      costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
      detail: r.detail,
    }));
  }

  /** Rows older than `days` go (retention); the number gone. */
  async purge(days: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM audit_events WHERE at < now() - make_interval(days => $1)`,
      [days],
    );
    return rowCount ?? 0;
  }
}
