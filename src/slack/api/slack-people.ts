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
 * Why the app can no longer post in a conversation (archived, gone, or the
 * bot no longer a member), or undefined when it can. A direct message with
 * the app is always open to it.
 */
export async function cannotPostIn(api: SlackApi, channel: string): Promise<string | undefined> {
  if (channel.startsWith('D')) return undefined;
  try {
    const result = (await api.call('conversations.info', () =>
      api.client.conversations.info({ channel }),
    )) as {
      channel?: { is_archived?: boolean; is_member?: boolean };
    };
    if (result.channel?.is_archived) return `<#${channel}> was archived`;
    if (result.channel?.is_member === false) return `I am no longer in <#${channel}>`;
    return undefined;
  } catch (error) {
    if (error instanceof SlackCallError && error.code === 'channel_not_found')
      return `I can no longer see <#${channel}>`;
    throw error;
  }
}
