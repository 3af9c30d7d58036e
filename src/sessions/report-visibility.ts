import type { Logger } from '../ports/logger.js';

/** Where a report was researched, as the visibility policy reads it. */
export interface ReportPlace {
  origin: 'slack' | 'cli';
  teamId: string | null;
  channelId: string | null;
  requester: string;
}

/** Whether a person may read a conversation (Slack's membership). */
export type CanRead = (channelId: string, userId: string) => Promise<boolean>;
/** Who is in a conversation (Slack's membership). */
export type MembersOf = (channelId: string) => Promise<ReadonlySet<string>>;

/**
 * The one visibility policy for reports, every path's (find, App Home, reuse
 * offers, asking a report, and anything later): who may see a report, and
 * where it may be shown. A channel's report is for its members, a direct
 * message's for its requester; another workspace's for nobody. A report is
 * shown (offered, quoted, answered from) in a conversation only when that
 * conversation is its own, or everyone in it may read it: a private channel's
 * or a DM's report never reaches a wider audience. Unknown is not allowed:
 * a membership that cannot be looked up hides the report (and is logged).
 */
export async function mayRead(
  report: ReportPlace,
  viewer: { userId: string; teamId: string },
  canRead: CanRead,
  log: Logger,
): Promise<boolean> {
  if (report.origin !== 'slack' || !report.channelId || report.teamId !== viewer.teamId) return false;
  // A direct message (Slack's D… conversations) is the requester's alone.
  if (report.channelId.startsWith('D')) return report.requester === viewer.userId;
  try {
    return await canRead(report.channelId, viewer.userId);
  } catch (err) {
    log.warn({ err, channel: report.channelId }, 'could not look up channel membership');
    return false;
  }
}

/** Whether a report may be shown to everyone in `conversation` (see mayRead for who may read it). */
export async function mayShowIn(
  report: ReportPlace,
  conversation: { channelId: string; teamId: string },
  membersOf: MembersOf,
  log: Logger,
): Promise<boolean> {
  if (report.origin !== 'slack' || !report.channelId || report.teamId !== conversation.teamId) return false;
  if (report.channelId === conversation.channelId) return true;
  if (report.channelId.startsWith('D')) return false;
  try {
    const [readers, audience] = await Promise.all([
      membersOf(report.channelId),
      membersOf(conversation.channelId),
    ]);
    return audience.size > 0 && [...audience].every((member) => readers.has(member));
  } catch (err) {
    log.warn({ err, channel: conversation.channelId }, 'could not look up who may see a report here');
    return false;
  }
}
