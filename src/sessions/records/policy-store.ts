import type { Queryable } from '../../store/database.js';
import { ChannelPolicy, type StoredPolicy } from '../policies/channel-policy.js';

/** Where a policy applies: a channel of a Slack team (null: the terminal's workspace). */
export interface PolicyPlace {
  teamId: string | null;
  channelId: string;
}

/** Channel policies, one per channel, each change a new version. */
export class PolicyStore {
  constructor(private readonly db: Queryable) {}

  /** The policy in force in a channel, or null (the app as set up). */
  async get(place: PolicyPlace, db: Queryable = this.db): Promise<StoredPolicy | null> {
    const { rows } = await db.query('SELECT * FROM channel_policies WHERE team_id = $1 AND channel_id = $2', [
      place.teamId ?? '',
      place.channelId,
    ]);
    return rows[0] ? toStored(rows[0]) : null;
  }

  /** Sets (or replaces) a channel's policy; as it now stands (its version one more). */
  async set(place: PolicyPlace, policy: ChannelPolicy, by: string): Promise<StoredPolicy> {
    const { rows } = await this.db.query(
      `INSERT INTO channel_policies (team_id, channel_id, policy, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (team_id, channel_id) DO UPDATE SET policy = EXCLUDED.policy,
         version = channel_policies.version + 1, updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING *`,
      [place.teamId ?? '', place.channelId, JSON.stringify(policy), by],
    );
    return toStored(rows[0]);
  }

  /** The channel goes back to the app as set up; whether it had a policy. */
  async clear(place: PolicyPlace): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'DELETE FROM channel_policies WHERE team_id = $1 AND channel_id = $2',
      [place.teamId ?? '', place.channelId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The Slack workspaces this database knows (from its sessions and policies). */
  async teams(): Promise<string[]> {
    const { rows } = await this.db.query(
      `SELECT team_id FROM sessions WHERE team_id IS NOT NULL
       UNION SELECT team_id FROM channel_policies WHERE team_id <> '' ORDER BY 1`,
    );
    return rows.map((r) => r.team_id);
  }

  /** Every policy of a team (null: every team), by channel. */
  async list(teamId?: string | null): Promise<StoredPolicy[]> {
    const { rows } = await this.db.query(
      `SELECT * FROM channel_policies WHERE $1::text IS NULL OR team_id = $1 ORDER BY team_id, channel_id`,
      [teamId === undefined ? null : (teamId ?? '')],
    );
    return rows.map(toStored);
  }
}

function toStored(r: Record<string, unknown>): StoredPolicy {
  return {
    teamId: r.team_id === '' ? null : (r.team_id as string),
    channelId: r.channel_id as string,
    // Parsed again: a policy stored by an older version gets the defaults of fields added since.
    policy: ChannelPolicy.parse(r.policy),
    version: r.version as number,
    updatedBy: r.updated_by as string,
    updatedAt: r.updated_at as Date,
  };
}
