import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../ports/errors.js';

/**
 * The service's one HTTP port, listening from the first second of start-up:
 * until the app behind it is ready, `/healthz` answers 503 "not ready" with
 * the reason (the database or Slack cannot be reached, or what is still
 * starting) and every other request 503, so a health check or a person
 * looking sees why instead of a closed port. Slack retries an event that
 * got a 503.
 */
export interface FrontDoor {
  port: number;
  /** Why it is not ready yet, as /healthz says it. */
  notReady(reason: string): void;
  /** From now on every request goes to `listener` (the Slack app and its routes). */
  open(listener: RequestListener): void;
  /** Stops taking requests and ends open connections. */
  close(): Promise<void>;
}

export async function openFrontDoor(port: number, host?: string): Promise<FrontDoor> {
  let reason = 'starting';
  let listener: RequestListener | undefined;
  const server = createServer(CONNECTION_LIMITS, (req, res) => {
    if (listener) return listener(req, res);
    const health = new URL(req.url ?? '/', 'http://x').pathname === '/healthz';
    // A caller's body is not read: closing the connection lets it go unsent.
    res
      .writeHead(503, { 'content-type': 'application/json', 'retry-after': '5', connection: 'close' })
      .end(`${JSON.stringify(health ? { status: 'not ready', reason } : { status: 'not ready' })}\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(portError(error, port) ?? error));
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    notReady: (why) => {
      reason = why;
    },
    open: (next) => {
      listener = next;
    },
    close: () => {
      // Requests under way finish (Slack's acks); a connection still open after the grace is ended.
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      });
      return closed;
    },
  };
}

const CLOSE_GRACE_MS = 5000;

/**
 * What a caller gets to send a request: Slack's events and clicks and
 * OpenAI's webhooks are small and sent at once, and Slack gives up on an ack
 * after 3 s, so a connection that has not sent its headers in 10 s, or its
 * whole request in 15 s, is closed (checked every 2 s) instead of being held
 * for Node's 60 s and 300 s; an idle kept-alive connection goes after 5 s.
 */
const CONNECTION_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 2_000,
} as const;

function portError(error: NodeJS.ErrnoException, port: number): ConfigError | undefined {
  if (error.code === 'EADDRINUSE')
    return new ConfigError(
      'port_in_use',
      `Port ${port} is already in use: stop what listens there, or set PORT to a free port.`,
    );
  if (error.code === 'EACCES')
    return new ConfigError(
      'port_refused',
      `This user may not listen on port ${port}: set PORT to 1024 or above.`,
    );
  return undefined;
}
