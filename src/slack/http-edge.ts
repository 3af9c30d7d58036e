import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, type HTTPReceiver } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import { foreignWorkspace } from './workspace-check.js';

/** Slack's replay window, both ways: a signature may be at most this old, or this far ahead. */
const SKEW_SECONDS = 5 * 60;
/**
 * Slack's requests are small (an event, a command, a modal's state): a
 * body past this is refused as it streams in (413), never held whole.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Checks Bolt's receiver does not make, before it reads a body: a request
 * without Slack's signature headers, or signed outside the five-minute
 * window either way, is refused with 401 and its body never read (the
 * connection is closed); a body past BODY_LIMIT_BYTES is cut off while it
 * streams; a body that parses to something other than an object (`null`,
 * `payload=null`, a number) is refused with 400 instead of crashing the
 * receiver. The signature itself needs the body and is Bolt's to check.
 */
export function guardRequests(
  receiver: HTTPReceiver,
  endpoint: string,
  log: Logger,
  installedTeam?: string,
): void {
  const next = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    // Anything else (health, unknown paths) is Bolt's, synchronously, as it expects.
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== endpoint)
      return next(req, res);
    const unsigned = unsignedReason(req);
    if (unsigned) {
      log.warn({ path: req.url }, `refused a request ${unsigned}`);
      // Closing the connection lets the sender's body go unread instead of draining it.
      res.writeHead(401, { connection: 'close' }).end(() => req.destroy());
      return;
    }
    HTTPModuleFunctions.bufferIncomingMessage(req, BODY_LIMIT_BYTES).then(
      (buffered) => {
        const body = parsedBody(buffered);
        const foreign = foreignWorkspace(body, installedTeam);
        if (foreign) {
          log.warn({ path: req.url }, foreign);
          return res.writeHead(401).end();
        }
        // Unparseable bodies are left to Bolt (which answers 401 or 400); parseable non-objects are ours to refuse.
        if (body === UNPARSEABLE || (typeof body === 'object' && body !== null && !Array.isArray(body))) {
          try {
            return next(buffered, res);
          } catch (err) {
            log.error({ err }, 'could not dispatch a Slack request');
            return res.writeHead(500).end();
          }
        }
        log.warn({ path: req.url }, 'refused a request whose body is not an object');
        res.writeHead(400).end();
      },
      (err: unknown) => {
        res
          .writeHead(
            HTTPModuleFunctions.isRawBodyError(err) ? (err as { statusCode: number }).statusCode : 400,
          )
          .end();
      },
    );
  };
}

/** Why a request cannot be Slack's, from its headers alone, or undefined. */
function unsignedReason(req: IncomingMessage): string | undefined {
  const signature = req.headers['x-slack-signature'];
  const timestamp = Number(req.headers['x-slack-request-timestamp']);
  if (typeof signature !== 'string' || !signature.startsWith('v0=') || !Number.isFinite(timestamp))
    return 'without a Slack signature';
  if (Math.abs(Date.now() / 1000 - timestamp) > SKEW_SECONDS) return 'signed outside the five-minute window';
  return undefined;
}

const UNPARSEABLE = Symbol('unparseable');

function parsedBody(req: IncomingMessage & { rawBody: Buffer }): unknown {
  try {
    return HTTPModuleFunctions.parseHTTPRequestBody(req);
  } catch {
    return UNPARSEABLE;
  }
}
