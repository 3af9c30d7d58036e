import type pg from 'pg';

/** One reader's verdict on a report. */
export interface Feedback {
  userId: string;
  value: 'good' | 'bad';
  at: Date;
}

/** Readers' verdicts on reports (the report's feedback buttons), one per person and session. */
export class FeedbackStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * A reader's verdict on a report, clicked in `channelId`: only a session
   * with a report, and only where one of its messages is (a button copied
   * into another conversation, or a made-up session id, counts for nothing).
   * A later click by the same person replaces the earlier one; clicks
   * handled out of order keep the latest (`at` is when it was made). False
   * when there is no report there to vote on.
   */
  async save(
    sessionId: string,
    userId: string,
    value: Feedback['value'],
    channelId: string,
    at: Date = new Date(),
  ): Promise<boolean> {
    const { rows } = await this.pool.query(
      `WITH target AS (
         SELECT s.id FROM sessions s WHERE s.id = $1 AND s.report IS NOT NULL
           AND EXISTS (SELECT 1 FROM slack_messages m WHERE m.session_id = s.id AND m.channel_id = $4)),
       vote AS (
         INSERT INTO session_feedback (session_id, user_id, value, updated_at)
         SELECT id, $2, $3, $5 FROM target
         ON CONFLICT (session_id, user_id) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
         WHERE session_feedback.updated_at <= EXCLUDED.updated_at)
       SELECT count(*)::int AS n FROM target`,
      [sessionId, userId, value, channelId, at],
    );
    return rows[0].n === 1;
  }

  async list(sessionId: string): Promise<Feedback[]> {
    const { rows } = await this.pool.query(
      'SELECT user_id, value, updated_at FROM session_feedback WHERE session_id = $1 ORDER BY updated_at',
      [sessionId],
    );
    return rows.map((r) => ({ userId: r.user_id, value: r.value, at: r.updated_at }));
  }
}
