import type { Queryable } from '../../store/database.js';

/** Active schedules one owner may have, and that may post in one channel. */
export interface ScheduleLimits {
  perPerson: number;
  perChannel: number;
}

/** Which limit a schedule would go past (a new one, or one resumed). */
export type OverLimit = { over: 'person' | 'channel'; limit: number };

/**
 * Which limit one more active schedule of `owner` in `channelId` would go
 * past (run under the schedules' lock, so two at once cannot both pass).
 */
export async function overLimit(
  db: Queryable,
  owner: string,
  channelId: string | null,
  limits: ScheduleLimits,
): Promise<OverLimit | null> {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE owner = $1)::int AS mine,
       count(*) FILTER (WHERE channel_id = $2)::int AS here
     FROM schedules WHERE status = 'active' AND (owner = $1 OR channel_id = $2)`,
    [owner, channelId],
  );
  if (rows[0].mine >= limits.perPerson) return { over: 'person', limit: limits.perPerson };
  if (channelId && rows[0].here >= limits.perChannel) return { over: 'channel', limit: limits.perChannel };
  return null;
}
