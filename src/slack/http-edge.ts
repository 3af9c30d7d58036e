import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPModuleFunctions, type HTTPReceiver } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';

/** Slack's replay window, both ways: a signature may be at most this old, or this far ahead. */
const SKEW_SECONDS = 5 * 60;

/**
 * Checks that Bolt's receiver does not make before it sees a request: a body
 * that parses to something other than an object (`null`, `payload=null`, a
 * number) is refused with 400 instead of crashing the receiver, and a
 * signature timestamp more than five minutes in the future is refused like a
 * stale one. Everything else, signatures included, is Bolt's to check.
 */
export function guardRequests(receiver: HTTPReceiver, endpoint: string, log: Logger): void {
  const next = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    // Anything else (health, unknown paths) is Bolt's, synchronously, as it expects.
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== endpoint)
      return next(req, res);
    const timestamp = Number(req.headers['x-slack-request-timestamp']);
    if (Number.isFinite(timestamp) && timestamp > Date.now() / 1000 + SKEW_SECONDS) {
      log.warn({ path: req.url }, 'refused a request signed in the future');
      res.writeHead(401).end();
      return;
    }
    HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit).then(
      (buffered) => {
        if (hasObjectBody(buffered)) {
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

/** Unparseable bodies are left to Bolt (which answers 401 or 400); only parseable non-objects are ours to refuse. */
function hasObjectBody(req: IncomingMessage & { rawBody: Buffer }): boolean {
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(req);
  } catch {
    return true;
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}
