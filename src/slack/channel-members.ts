import type { SlackApi } from './slack-api.js';

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

  async has(channelId: string, userId: string): Promise<boolean> {
    return (await this.of(channelId)).has(userId);
  }

  private of(channelId: string): Promise<Set<string>> {
    const cached = this.cache.get(channelId);
    if (cached && this.now() - cached.at < FRESH_MS) return cached.members;
    if (this.cache.size >= MAX_CHANNELS) this.cache.delete(this.cache.keys().next().value!);
    const members = this.api.members(channelId).then((ids) => new Set(ids));
    // A failed lookup is not kept: the next search asks again.
    members.catch(() => this.cache.delete(channelId));
    this.cache.set(channelId, { members, at: this.now() });
    return members;
  }
}
