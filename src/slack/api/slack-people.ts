import type { SlackApi } from './slack-api.js';
import { SlackCallError } from './slack-errors.js';

/** A person as a schedule needs them: their time zone (IANA), and whether their account was deactivated. */
export async function personOf(api: SlackApi, user: string): Promise<{ timeZone?: string; gone: boolean }> {
  const result = (await api.call('users.info', () => api.client.users.info({ user }))) as {
    user?: { tz?: string; deleted?: boolean };
  };
  return { ...(result.user?.tz ? { timeZone: result.user.tz } : {}), gone: Boolean(result.user?.deleted) };
}

/**
 * Why the app cannot post in a conversation (archived, gone, or the bot not
 * a member), or undefined when it can. A direct message with the app is
 * always open to it.
 */
export async function cannotPostIn(
  api: SlackApi,
  channel: string,
): Promise<'archived' | 'not_member' | 'not_found' | undefined> {
  if (channel.startsWith('D')) return undefined;
  try {
    const result = (await api.call('conversations.info', () =>
      api.client.conversations.info({ channel }),
    )) as {
      channel?: { is_archived?: boolean; is_member?: boolean };
    };
    if (result.channel?.is_archived) return 'archived';
    if (result.channel?.is_member === false) return 'not_member';
    return undefined;
  } catch (error) {
    if (error instanceof SlackCallError && error.code === 'channel_not_found') return 'not_found';
    throw error;
  }
}
