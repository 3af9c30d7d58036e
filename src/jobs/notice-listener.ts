import pg from 'pg';
import type { Logger } from '../ports/logger.js';
import { databaseCause } from '../store/database-errors.js';

export interface NoticeListener {
  stop(): Promise<void>;
}

/** The channel on which a verified webhook announces that a hosted request ended (payload: its id). */
export const RESPONSE_ENDED_CHANNEL = 'hosted_response_ended';

/** Tells every process listening that hosted request `id` ended (one of them polls it). */
export async function announceResponseEnded(pool: pg.Pool, id: string): Promise<void> {
  await pool.query('SELECT pg_notify($1, $2)', [RESPONSE_ENDED_CHANNEL, id]);
}

/**
 * Hears notices the moment they are made (Postgres LISTEN on its own
 * connection, one handler per channel): cancel requests, so the worker
 * running a session stops it within a second instead of at its next
 * heartbeat, and hosted requests that ended, so their task reads them at
 * once. A broken connection is replaced with backoff; meanwhile heartbeats
 * and polls still notice, only later.
 */
export function listenForNotices(
  url: string,
  handlers: Record<string, (payload: string) => void>,
  log: Logger,
): NoticeListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    next.on('notification', (msg) => {
      if (msg.payload) handlers[msg.channel]?.(msg.payload);
    });
    next.on('error', (err) => {
      log.warn({ cause: databaseCause(err) }, 'the notice listener lost its connection; reconnecting');
      next.end().catch(() => {});
      if (client === next) client = undefined;
      schedule();
    });
    try {
      await next.connect();
      // Channel names are this code's constants (LISTEN takes no parameters).
      for (const channel of Object.keys(handlers)) await next.query(`LISTEN ${channel}`);
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
