import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../store/database.js';

/** A [Repeat…] form opened: whose it is, the report's session, and the conversation it was clicked in. */
export interface RepeatOffer {
  sessionId: string;
  teamId: string;
  channelId: string;
  userId: string;
}

/** A form left open longer than this is stale: the person clicks [Repeat…] again. */
const OFFER_HOURS = 24;

/**
 * [Repeat…] forms: the form carries a random token bound to who clicked and
 * the conversation where the report is shown to them, so a submission can
 * name no other session, channel or person.
 */
export class RepeatOfferStore {
  constructor(private readonly db: Queryable) {}

  /**
   * A token for `offer`, or null when its session has no report shown in
   * `offer.channelId` of its workspace (a click naming another session than
   * the message's, or a report not posted there).
   */
  async create(offer: RepeatOffer): Promise<string | null> {
    const token = randomUUID();
    const { rowCount } = await this.db.query(
      `INSERT INTO repeat_offers (token, session_id, team_id, channel_id, user_id)
       SELECT $1, s.id, $3, $4, $5 FROM sessions s
       WHERE s.id = $2 AND s.team_id = $3 AND s.report IS NOT NULL
         AND EXISTS (SELECT 1 FROM slack_messages m WHERE m.session_id = s.id AND m.channel_id = $4)`,
      [token, offer.sessionId, offer.teamId, offer.channelId, offer.userId],
    );
    // Forms nobody submitted go as new ones are made.
    await this.db.query(`DELETE FROM repeat_offers WHERE created_at < now() - make_interval(hours => $1)`, [
      OFFER_HOURS,
    ]);
    return rowCount === 1 ? token : null;
  }

  /** The offer behind a form's token, if it is `userId`'s and still fresh, with its session's question. */
  async get(
    token: string,
    userId: string,
  ): Promise<(RepeatOffer & { question: string; threadTs: string | null }) | null> {
    if (!/^[0-9a-f-]{36}$/i.test(token)) return null;
    const { rows } = await this.db.query(
      `SELECT o.session_id, o.team_id, o.channel_id, o.user_id, s.question, s.thread_ts
       FROM repeat_offers o JOIN sessions s ON s.id = o.session_id
       WHERE o.token = $1 AND o.user_id = $2 AND o.created_at >= now() - make_interval(hours => $3)`,
      [token, userId, OFFER_HOURS],
    );
    const r = rows[0];
    return r
      ? {
          sessionId: r.session_id,
          teamId: r.team_id,
          channelId: r.channel_id,
          userId: r.user_id,
          question: r.question,
          threadTs: r.thread_ts,
        }
      : null;
  }

  /** The form was used: its token names nothing any more. */
  async used(token: string): Promise<void> {
    await this.db.query('DELETE FROM repeat_offers WHERE token = $1', [token]);
  }
}
