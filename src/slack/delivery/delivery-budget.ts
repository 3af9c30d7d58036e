import type { OutboxRow } from '../../sessions/records/outbox-store.js';
import type { SlackRateLimits } from '../api/slack-rate-limits.js';

/**
 * One round's view of the process's Slack budget: the writes chosen in a
 * round spend their tokens when they are sent, so the round counts them
 * itself. chat.update has the edit scheduler instead.
 */
export class Budget {
  private readonly planned = new Map<string, number>();
  constructor(private readonly limits: SlackRateLimits) {}

  /**
   * 0 when the write can go now (and counts it), else how long until it
   * could (unknown while this round's own writes hold the tokens: their
   * answers wake the dispatcher).
   */
  reserve(row: OutboxRow): number {
    if (row.op === 'update') return 0;
    const method = METHOD[row.op];
    const channel = row.channelId === 'dm' ? undefined : row.channelId;
    const key = `${method}:${channel ?? ''}`;
    const used = this.planned.get(key) ?? 0;
    if (this.limits.available(method, channel) <= used) {
      return this.limits.wouldWait(method, channel) || Number.POSITIVE_INFINITY;
    }
    this.planned.set(key, used + 1);
    return 0;
  }
}

const METHOD: Record<Exclude<OutboxRow['op'], 'update'>, string> = {
  post: 'chat.postMessage',
  delete: 'chat.delete',
  upload: 'files.completeUploadExternal',
  react: 'reactions.add',
  unreact: 'reactions.remove',
  canvas: 'canvases.create',
  agent_status: 'agents.sessions.setStatus',
};
