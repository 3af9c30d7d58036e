import type { IncomingMessage, ServerResponse } from 'node:http';

/** An endpoint served beside Slack's on the app's HTTP port, in both modes (`/healthz`, `/metrics`, webhooks). */
export interface HttpRoute {
  path: string;
  /** GET unless said. */
  method?: 'GET' | 'POST';
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}
