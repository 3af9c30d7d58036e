import type { EraseIntents } from '../../sessions/records/report-erasure.js';
import { context, type SlackMessage } from '../render/messages.js';
import { SessionThread } from '../thread/session-thread.js';

/** What the root (or a notice in a mention's thread) says once a session is deleted; no live mention. */
export function deletedMessage(by: string): SlackMessage {
  const who = by === 'retention' ? 'as this app keeps reports for RETENTION_DAYS only' : `by <@${by}>`;
  return {
    text: 'This research was deleted',
    blocks: [context(`:wastebasket: This research was deleted ${who}.`)],
  };
}

/** The Slack removals of a deleted session: its thread's one owner builds them. */
export const slackErase: EraseIntents = (row, owned, by) =>
  row.origin === 'slack' && row.channelId
    ? SessionThread.of(row, owned.get('mention')?.ts).erase(owned, deletedMessage(by))
    : [];
