import pg from 'pg';
import type { Logger } from '../ports/logger.js';
import { databaseCause } from '../store/database-errors.js';
import { CANCEL_CHANNEL } from '../store/session-lifecycle.js';

export interface CancelListener {
  stop(): Promise<void>;
}

/**
 * Hears cancel requests the moment they are made (Postgres LISTEN on its own
 * connection), so the worker running a session stops it within a second
 * instead of at its next heartbeat. A broken connection is replaced with
 * backoff; meanwhile the heartbeat still notices cancels, only later.
 */
export function listenForCancels(
  url: string,
  onCancel: (sessionId: string) => void,
  log: Logger,
): CancelListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    next.on('notification', (msg) => {
      if (msg.channel === CANCEL_CHANNEL && msg.payload) onCancel(msg.payload);
    });
    next.on('error', (err) => {
      log.warn({ cause: databaseCause(err) }, 'the cancel listener lost its connection; reconnecting');
      next.end().catch(() => {});
      if (client === next) client = undefined;
      schedule();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CANCEL_CHANNEL}`);
      if (stopped) {
        await next.end();
        return;
      }
      client = next;
      retryMs = 500;
    } catch {
      next.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
