import type { IncomingMessage, ServerResponse } from 'node:http';
import OpenAI from 'openai';
import type { Logger } from '../ports/logger.js';
import type { HttpRoute } from './http-route.js';

export const OPENAI_WEBHOOK_PATH = '/openai/webhooks';
/** OpenAI's events are a few hundred bytes (an id and a type); anything past this is not one. */
const BODY_LIMIT_BYTES = 64 * 1024;
/** The Standard Webhooks tolerance OpenAI's SDK applies: a signature at most this old, or this far ahead. */
const TOLERANCE_SECONDS = 300;
/** Delivery ids are remembered this long (past the tolerance, after which a replay fails its signature anyway). */
const SEEN_MS = 2 * TOLERANCE_SECONDS * 1000;
const MAX_SEEN = 10_000;

/** The events that say a background response has ended. */
const ENDED = new Set(['response.completed', 'response.failed', 'response.cancelled', 'response.incomplete']);

export interface WebhookStats {
  received: number;
  /** Refused before the body was read (no signature headers, or outside the time window), or with a bad signature. */
  refused: number;
  /** Verified deliveries seen before (OpenAI retries; an attacker replays): answered, acted on once. */
  duplicates: number;
  /** Verified `response.*` endings handed on. */
  ended: number;
}

/**
 * OpenAI's webhooks for background responses, on the app's HTTP port. A
 * request without the Standard Webhooks headers, or stamped outside the five
 * minutes either way, is refused (401) before its body is read; the body is
 * read up to 64 KiB and verified with the secret by OpenAI's SDK
 * (`webhooks.unwrap`, HMAC over id, timestamp and body) before anything in it
 * is believed (400 when it fails). A delivery id seen before is answered and
 * ignored. An ending (`response.completed`, `.failed`, `.cancelled`,
 * `.incomplete`) hands on only the response id: whoever owns that request
 * reads it from the API itself, so a valid notice can wake a poller early
 * and nothing more.
 */
export function openAiWebhookRoute(options: {
  secret: string;
  onEnded: (responseId: string) => void;
  log: Logger;
  now?: () => number;
}): { route: HttpRoute; stats: WebhookStats } {
  const now = options.now ?? Date.now;
  const verifier = new OpenAI({ apiKey: 'not-used', webhookSecret: options.secret });
  const seen = new Map<string, number>();
  const stats: WebhookStats = { received: 0, refused: 0, duplicates: 0, ended: 0 };
  const refuse = (res: ServerResponse, status: number, why: string, req?: IncomingMessage) => {
    stats.refused += 1;
    options.log.warn({ path: OPENAI_WEBHOOK_PATH, status }, `refused an OpenAI webhook ${why}`);
    // Closing the connection lets an unread body go without draining it.
    res.writeHead(status, { connection: 'close' }).end(() => req?.destroy());
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    stats.received += 1;
    const id = header(req, 'webhook-id');
    const stamp = Number(header(req, 'webhook-timestamp'));
    if (!id || !header(req, 'webhook-signature') || !Number.isFinite(stamp))
      return refuse(res, 401, 'without a signature', req);
    if (Math.abs(now() / 1000 - stamp) > TOLERANCE_SECONDS)
      return refuse(res, 401, 'signed outside the five-minute window', req);
    readLimited(req, BODY_LIMIT_BYTES).then(
      async (body) => {
        if (body === undefined) return refuse(res, 413, 'with a body over 64 KiB', req);
        let event: { type?: string; data?: { id?: unknown } };
        try {
          event = (await verifier.webhooks.unwrap(
            body,
            req.headers as Record<string, string>,
          )) as typeof event;
        } catch {
          return refuse(res, 400, 'whose signature does not match OPENAI_WEBHOOK_SECRET');
        }
        res.writeHead(200).end();
        if (remembered(seen, id, now())) {
          stats.duplicates += 1;
          return;
        }
        const responseId = event.data?.id;
        if (event.type && ENDED.has(event.type) && typeof responseId === 'string') {
          stats.ended += 1;
          options.onEnded(responseId);
        }
      },
      () => res.writeHead(400).end(),
    );
  };
  return { route: { path: OPENAI_WEBHOOK_PATH, method: 'POST', handler }, stats };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** Whether `id` was seen in the window; remembers it (bounded: the oldest go first). */
function remembered(seen: Map<string, number>, id: string, at: number): boolean {
  for (const [old, when] of seen) {
    if (seen.size < MAX_SEEN && at - when < SEEN_MS) break;
    seen.delete(old);
  }
  if (seen.has(id)) return true;
  seen.set(id, at);
  return false;
}

/** The body as text, or undefined once it passes `limit` bytes (reading stops there). */
function readLimited(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
