import { sleep } from '../http/retry-delay.js';
import type { Logger } from '../ports/logger.js';
import { databaseCause, isDatabaseUnavailable } from './database-errors.js';

/**
 * Logs a database outage once, not on every poll: the first failure as a
 * warning with its cause, the recovery as one line. Other errors are logged
 * as they come, since each is its own problem.
 */
export function outageLog(log: Logger, what: string) {
  let down = false;
  return {
    failed(err: unknown): void {
      if (!isDatabaseUnavailable(err)) {
        log.error({ err }, `${what} failed`);
        return;
      }
      if (down) return;
      down = true;
      log.warn({ cause: databaseCause(err) }, `${what}: the database is unavailable; waiting for it`);
    },
    ok(): void {
      if (!down) return;
      down = false;
      log.info({}, `${what}: the database is back`);
    },
  };
}

/**
 * Runs a write that must not be lost, waiting out a database outage (backoff
 * 0.5 s to 10 s) until it succeeds or `signal` aborts. Any other error is the
 * caller's.
 */
export async function untilWritten<T>(
  write: () => Promise<T>,
  options: { log: ReturnType<typeof outageLog>; signal?: AbortSignal },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await write();
      options.log.ok();
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      options.log.failed(error);
      await sleep(Math.min(500 * 2 ** attempt, 10_000), options.signal);
    }
  }
}
