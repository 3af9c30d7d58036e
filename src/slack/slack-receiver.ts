import { HTTPModuleFunctions, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import type { Logger as BoltLogger } from '@slack/logger';
import type { FrontDoor } from '../http/front-door.js';
import type { HttpRoute } from '../http/http-route.js';
import type { Logger } from '../ports/logger.js';
import { webClientOptions } from './api/slack-clients.js';
import { guardRequests } from './http-edge.js';

export interface ReceiverOptions {
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
  /** The workspace the bot token belongs to: requests from another are refused. */
  installedTeam?: string;
}

/**
 * How Slack reaches the app. HTTP: Bolt's receiver on /slack/events, with
 * the operator routes beside it, behind the service's front door (the port
 * that answered "not ready" while the app started). Socket Mode: Bolt's
 * socket client, whose `apps.connections.open` goes to SLACK_API_URL like
 * every other call, and the operator routes alone behind the front door.
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
      async start(door: FrontDoor): Promise<void> {
        // As Bolt's own server does: a request its listener could not take is answered by its error handler.
        door.open((request, response) => {
          try {
            receiver.requestListener(request, response);
          } catch (error) {
            HTTPModuleFunctions.defaultDispatchErrorHandler({
              error: error as Error,
              logger: boltLog,
              request,
              response,
            });
          }
        });
      },
      stop: async () => {},
    };
  }
  const receiver = new SocketModeReceiver({
    appToken: options.appToken,
    logger: boltLog,
    installerOptions: { clientOptions: webClientOptions(options.apiUrl) },
  });
  return {
    receiver,
    async start(door: FrontDoor): Promise<void> {
      await receiver.start();
      door.open((req, res) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        const route = routes.find((r) => r.path === path && (r.method ?? 'GET') === req.method);
        if (route) route.handler(req, res);
        else res.writeHead(404).end();
      });
    },
    stop: () => receiver.stop(),
  };
}
