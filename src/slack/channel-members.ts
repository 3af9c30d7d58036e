import type { SlackApi } from './api/slack-api.js';

/** How long a channel's member list is trusted: joining or leaving shows within a minute. */
const FRESH_MS = 60_000;
const MAX_CHANNELS = 500;

/**
 * Who is in a conversation (conversations.members), cached briefly per
 * channel, so a search over many reports asks Slack once per channel.
 */
export class ChannelMembers {
  private readonly cache = new Map<string, { members: Promise<Set<string>>; at: number }>();

  constructor(
    private readonly api: SlackApi,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether they are in it; `fresh`: asked of Slack now (a decision that must not trust a minute-old list). */
  async has(channelId: string, userId: string, { fresh = false } = {}): Promise<boolean> {
    if (fresh) this.cache.delete(channelId);
    return (await this.of(channelId)).has(userId);
  }

  /** Everyone in a conversation (a DM's two people included). */
  of(channelId: string): Promise<Set<string>> {
    const cached = this.cache.get(channelId);
    if (cached && this.now() - cached.at < FRESH_MS) return cached.members;
    if (this.cache.size >= MAX_CHANNELS) this.cache.delete(this.cache.keys().next().value!);
    const members = this.all(channelId).then((ids) => new Set(ids));
    // A failed lookup is not kept: the next search asks again.
    members.catch(() => this.cache.delete(channelId));
    this.cache.set(channelId, { members, at: this.now() });
    return members;
  }

  /** Every member of a conversation, all pages; `not_in_channel` and the like are errors. */
  private async all(channel: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.api.call('conversations.members', () =>
        this.api.client.conversations.members({ channel, limit: 1000, ...(cursor ? { cursor } : {}) }),
      )) as { members?: string[]; response_metadata?: { next_cursor?: string } };
      ids.push(...(page.members ?? []));
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return ids;
  }
}
