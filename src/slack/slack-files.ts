import type { SlackApi } from './slack-api.js';

/** A file shared in a conversation, as Slack describes it (files:read). */
export interface SlackFile {
  id: string;
  name: string;
  size: number;
  /** `url_private_download`: readable with the bot token. */
  url: string;
  /** When it was shared (seconds, Slack's ts). */
  ts: string;
}

/** A file object as Slack returns it in a message (conversations.history, conversations.replies). */
export interface SlackFileObject {
  id?: string;
  name?: string;
  title?: string;
  size?: number;
  url_private_download?: string;
  url_private?: string;
  permalink?: string;
  mode?: string;
}

/**
 * The files `user` shared in a conversation during the last `withinSeconds`,
 * newest first: from the messages Slack returns (a message with files
 * carries them; external and tombstoned files have no download address).
 */
export async function filesSharedBy(
  api: SlackApi,
  place: { channel: string; user: string; withinSeconds: number },
): Promise<SlackFile[]> {
  const oldest = (Date.now() / 1000 - place.withinSeconds).toFixed(6);
  const result = (await api.call(
    'conversations.history',
    () => api.client.conversations.history({ channel: place.channel, oldest, limit: 100 }),
    place.channel,
  )) as { messages?: { ts?: string; user?: string; files?: SlackFileObject[] }[] };
  const found: SlackFile[] = [];
  for (const m of result.messages ?? []) {
    if (m.user !== place.user || !m.ts) continue;
    for (const f of m.files ?? []) {
      const url = f.url_private_download ?? f.url_private;
      if (!f.id || !url || f.mode === 'tombstone' || f.mode === 'external') continue;
      found.push({ id: f.id, name: f.name ?? f.title ?? f.id, size: f.size ?? 0, url, ts: m.ts });
    }
  }
  return found;
}

/**
 * A file's bytes, read with the bot token (Slack's private file URLs need
 * it), refused beyond `maxBytes` without reading the rest.
 */
export async function downloadFile(api: SlackApi, file: SlackFile, maxBytes: number): Promise<Buffer> {
  if (file.size > maxBytes) throw new FileTooLarge(file.size, maxBytes);
  // The bot token goes only to Slack's own file host (or the API's, for a Slack stand-in).
  const host = new URL(file.url);
  if (host.hostname !== 'files.slack.com' && host.origin !== new URL(api.client.slackApiUrl).origin)
    throw new Error(`the file is not on Slack's file host (${host.hostname})`);
  const response = await fetch(file.url, {
    headers: { authorization: `Bearer ${api.client.token}` },
    redirect: 'follow',
    signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok || !response.body) throw new Error(`Slack answered HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new FileTooLarge(size, maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  const bytes = Buffer.concat(chunks);
  // A login page instead of the file: the token lacks files:read.
  if (/^\s*<!DOCTYPE html/i.test(bytes.subarray(0, 64).toString()) && !/\.html?$/i.test(file.name))
    throw new Error('Slack sent a sign-in page instead of the file (the app needs the files:read scope)');
  return bytes;
}

export class FileTooLarge extends Error {
  constructor(size: number, max: number) {
    super(`it is larger than ${megabytes(max)} (${megabytes(size)})`);
  }
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}
