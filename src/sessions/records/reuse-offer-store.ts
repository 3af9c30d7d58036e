import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../store/database.js';

export interface ReuseOffer {
  /** A random token (what the offer's buttons carry): an offer's id says nothing of any other. */
  id: string;
  teamId: string;
  channelId: string;
  threadTs: string;
  requester: string;
  question: string;
  openerRole: 'root' | 'mention';
  openerTs: string;
  turn: number;
  earlierSession: string;
}

/** Questions waiting on the person's choice between an earlier report and a new research. */
export class ReuseOfferStore {
  constructor(private readonly db: Queryable) {}

  async create(offer: Omit<ReuseOffer, 'id'>): Promise<string> {
    const token = randomUUID();
    await this.db.query(
      `INSERT INTO reuse_offers (team_id, channel_id, thread_ts, requester, question, opener_role, opener_ts, turn, earlier_session, token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        offer.teamId,
        offer.channelId,
        offer.threadTs,
        offer.requester,
        offer.question,
        offer.openerRole,
        offer.openerTs,
        offer.turn,
        offer.earlierSession,
        token,
      ],
    );
    return token;
  }

  async get(id: string): Promise<ReuseOffer | null> {
    const { rows } = await this.db.query('SELECT * FROM reuse_offers WHERE token = $1', [id]);
    return rows[0] ? offerOf(rows[0]) : null;
  }

  /** The choice, made once: the offer when this call made it, null when it was already made. */
  async choose(id: string, choice: 'read' | 'ask' | 'research'): Promise<ReuseOffer | null> {
    const { rows } = await this.db.query(
      'UPDATE reuse_offers SET choice = $2 WHERE token = $1 AND choice IS NULL RETURNING *',
      [id, choice],
    );
    return rows[0] ? offerOf(rows[0]) : null;
  }

  /** A choice that could not be carried out (research refused): the person may choose again. */
  async reopen(id: string): Promise<void> {
    await this.db.query('UPDATE reuse_offers SET choice = NULL WHERE token = $1', [id]);
  }
}

function offerOf(r: Record<string, unknown>): ReuseOffer {
  return {
    id: String(r.token),
    teamId: String(r.team_id),
    channelId: String(r.channel_id),
    threadTs: String(r.thread_ts),
    requester: String(r.requester),
    question: String(r.question),
    openerRole: r.opener_role as 'root' | 'mention',
    openerTs: String(r.opener_ts),
    turn: Number(r.turn),
    earlierSession: String(r.earlier_session),
  };
}
