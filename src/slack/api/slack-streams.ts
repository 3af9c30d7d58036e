import type { StreamChunk } from '../render/progress-chunks.js';
import type { SlackApi } from './slack-api.js';

// Streamed messages (chat.startStream / appendStream / stopStream; chat:write), for live progress.

/**
 * Starts a streamed thread reply in plan mode; its ts. Outside direct
 * messages Slack wants the person it streams to (`recipient`).
 */
export async function startStream(
  api: SlackApi,
  channel: string,
  threadTs: string,
  chunks: StreamChunk[],
  recipient?: { user: string; team: string },
): Promise<string> {
  const result = await api.call('chat.startStream', () =>
    api.client.chat.startStream({
      channel,
      thread_ts: threadTs,
      chunks,
      task_display_mode: 'plan',
      ...(recipient ? { recipient_user_id: recipient.user, recipient_team_id: recipient.team } : {}),
    }),
  );
  return String((result as { ts?: string }).ts);
}

/** A live update of a stream: a 429 comes back as SlackRateLimited (the next update carries the same state). */
export async function appendStream(
  api: SlackApi,
  channel: string,
  ts: string,
  chunks: StreamChunk[],
): Promise<void> {
  await api.limits.take('chat.appendStream');
  await api.once('chat.appendStream', () => api.client.chat.appendStream({ channel, ts, chunks }));
}

export async function stopStream(
  api: SlackApi,
  channel: string,
  ts: string,
  chunks: StreamChunk[],
): Promise<void> {
  await api.call('chat.stopStream', () => api.client.chat.stopStream({ channel, ts, chunks }));
}
