import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../http/http-route.js';
import type { Logger } from '../ports/logger.js';
import { within } from '../within.js';

/** What the operator routes answer with. */
export interface OpsSources {
  /** Answers /healthz with 200 and these figures, or 503 when it throws or takes over 1.5 s (the database is down or frozen). */
  health: () => Promise<Record<string, unknown>>;
  /** Answers /metrics (Prometheus text format). */
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** More endpoints on the same port (OpenAI's webhooks). */
  routes?: HttpRoute[];
}

const HEALTH_DEADLINE_MS = 1500;

/** `/healthz` (200 with figures, 503 when the database does not answer in 1.5 s) and `/metrics`. */
export function opsRoutes(options: OpsSources, log: Logger): HttpRoute[] {
  const health = (_req: IncomingMessage, res: ServerResponse) => {
    const json = (status: number, body: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
    within(options.health(), HEALTH_DEADLINE_MS).then(
      (body) => json(200, { status: 'ok', ...body }),
      () => json(503, { status: 'database unavailable' }),
    );
  };
  const routes: HttpRoute[] = [{ path: '/healthz', handler: health }];
  const { metrics } = options;
  if (metrics) {
    const handler = (_req: IncomingMessage, res: ServerResponse) => {
      metrics().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        (error: unknown) => {
          log.error({ err: error }, 'metrics could not be rendered');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    };
    routes.push({ path: '/metrics', handler });
  }
  return [...routes, ...(options.routes ?? [])];
}
