import type { Standing } from '../../sessions/policies/policy-gate.js';
import type { SlackApi } from '../api/slack-api.js';

/** A user group's members are asked again after this long (usergroups.users.list is Tier 2: 20 a minute). */
const GROUP_TTL_MS = 60_000;

/**
 * A person's standing as a channel policy reads it: admin or owner
 * (users.info), and which of the named user groups they are in (members kept
 * a minute, so a burst of requests in one channel asks Slack once).
 */
export function slackStanding(api: SlackApi, now: () => number = Date.now): Standing {
  const groups = new Map<string, { at: number; members: Promise<string[]> }>();
  const membersOf = (group: string) => {
    const known = groups.get(group);
    if (known && now() - known.at < GROUP_TTL_MS) return known.members;
    const members = api.groupMembers(group);
    groups.set(group, { at: now(), members });
    // A failed answer is not kept: the next request asks again.
    members.catch(() => groups.delete(group));
    return members;
  };
  return async (who, named) => {
    const [admin, ...members] = await Promise.all([api.isAdmin(who.userId), ...named.map(membersOf)]);
    return {
      admin: admin as boolean,
      groups: named.filter((_, i) => (members[i] as string[]).includes(who.userId)),
    };
  };
}
