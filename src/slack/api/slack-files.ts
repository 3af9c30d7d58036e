import { megabytes } from '../../ports/document-reading.js';
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

/** Redirects followed at most, each one checked like the first address. */
const MAX_REDIRECTS = 3;

/**
 * The one file-host policy: the bot token goes only to Slack's file host
 * (`https://files.slack.com`, its default port) or to the origin of the Slack
 * API itself (SLACK_API_URL: a stand-in such as the in-repo fake, which the
 * token reaches anyway). Anything else — another host, plain http, another
 * port, credentials in the URL — is not Slack's.
 */
export function onSlackFileHost(url: URL, apiUrl: string): boolean {
  if (url.username || url.password) return false;
  if (url.origin === new URL(apiUrl).origin) return true;
  return url.protocol === 'https:' && url.hostname === 'files.slack.com' && url.port === '';
}

/**
 * A file's bytes, read with the bot token (Slack's private file URLs need
 * it), refused beyond `maxBytes` without reading the rest. Every address,
 * redirects included, must pass `onSlackFileHost`: the token is sent to
 * nothing else and nothing from elsewhere is kept.
 */
export async function downloadFile(api: SlackApi, file: SlackFile, maxBytes: number): Promise<Buffer> {
  if (file.size > maxBytes) throw new FileTooLarge(file.size, maxBytes);
  const apiUrl = api.client.slackApiUrl;
  let at = new URL(file.url);
  let response: Response;
  for (let hops = 0; ; hops += 1) {
    if (!onSlackFileHost(at, apiUrl))
      throw new Error(
        hops === 0
          ? `the file is not on Slack's file host (${at.protocol}//${at.host})`
          : `Slack's file host sent it on to ${at.protocol}//${at.host}, which is not Slack's; it was not read`,
      );
    response = await fetch(at, {
      headers: { authorization: `Bearer ${api.client.token}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    const location = response.status >= 300 && response.status < 400 && response.headers.get('location');
    if (!location) break;
    await response.body?.cancel();
    if (hops >= MAX_REDIRECTS)
      throw new Error(`Slack's file host redirected it more than ${MAX_REDIRECTS} times`);
    at = new URL(location, at);
  }
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
