import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import type { Logger as BoltLogger } from '@slack/logger';
import type { HttpRoute } from '../http/http-route.js';
import type { Logger } from '../ports/logger.js';
import { webClientOptions } from './api/slack-clients.js';
import { guardRequests } from './http-edge.js';

export interface ReceiverOptions {
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
  port: number;
  host?: string;
  /** The workspace the bot token belongs to: requests from another are refused. */
  installedTeam?: string;
}

/**
 * How Slack reaches the app. HTTP: Bolt's receiver on /slack/events, with
 * the operator routes beside it. Socket Mode: Bolt's socket client, whose
 * `apps.connections.open` goes to SLACK_API_URL like every other call, and
 * a small HTTP server of our own for the operator routes on PORT (Bolt's
 * would listen on a port it does not report).
 */
export function slackReceiver(
  options: ReceiverOptions,
  routes: HttpRoute[],
  log: Logger,
  boltLog: BoltLogger,
) {
  if (!options.appToken) {
    const receiver = new HTTPReceiver({
      signingSecret: options.signingSecret ?? '',
      endpoints: '/slack/events',
      customRoutes: routes.map((r) => ({ ...r, method: [r.method ?? 'GET'] })),
      logger: boltLog,
    });
    guardRequests(receiver, '/slack/events', log, options.installedTeam);
    return {
      receiver,
      async start(): Promise<number> {
        const server = (await receiver.start({ port: options.port, host: options.host })) as Server;
        return (server.address() as AddressInfo).port;
      },
      stop: () => receiver.stop(),
    };
  }
  const receiver = new SocketModeReceiver({
    appToken: options.appToken,
    logger: boltLog,
    installerOptions: { clientOptions: webClientOptions(options.apiUrl) },
  });
  const ops = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path && (r.method ?? 'GET') === req.method);
    if (route) route.handler(req, res);
    else res.writeHead(404).end();
  });
  return {
    receiver,
    async start(): Promise<number> {
      await receiver.start();
      await new Promise<void>((resolve, reject) => {
        ops.once('error', reject);
        ops.listen(options.port, options.host, () => resolve());
      });
      return (ops.address() as AddressInfo).port;
    },
    async stop() {
      await receiver.stop();
      ops.closeAllConnections();
      await new Promise<void>((resolve) => ops.close(() => resolve()));
    },
  };
}
