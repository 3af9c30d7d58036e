import type { Standing } from '../../sessions/policies/policy-gate.js';
import type { SlackApi } from '../api/slack-api.js';

/** A person's standing as a channel policy reads it: admin or owner (users.info), and the named groups they are in. */
export function slackStanding(api: SlackApi): Standing {
  return async (who, groups) => {
    const [admin, ...members] = await Promise.all([
      api.isAdmin(who.userId),
      ...groups.map((g) => api.groupMembers(g)),
    ]);
    return {
      admin: admin as boolean,
      groups: groups.filter((_, i) => (members[i] as string[]).includes(who.userId)),
    };
  };
}
