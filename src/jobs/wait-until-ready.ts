import { sleep } from '../http/retry-delay.js';
import type { Logger } from '../ports/logger.js';

/**
 * Start-up against a dependency that may not be up yet: tries `attempt`
 * until it succeeds, logging one line per failed try (what, why, when the
 * next try is) with backoff from 1 s to 30 s. An error `fatal` recognises
 * (a refused token) ends start-up at once. Resolves with undefined when
 * `stop` aborts first (the process was asked to stop while waiting).
 */
export async function waitUntilReady<T>(
  what: string,
  attempt: () => Promise<T>,
  options: {
    logger: Logger;
    stop: AbortSignal;
    fatal: (error: unknown) => Error | null;
    cause: (error: unknown) => string;
    /** Told each time it cannot be reached, in a sentence (for /healthz while the service starts). */
    waiting?: (why: string) => void;
  },
): Promise<T | undefined> {
  for (let n = 1; !options.stop.aborted; n++) {
    try {
      return await attempt();
    } catch (error) {
      const fatal = options.fatal(error);
      if (fatal) throw fatal;
      const waitMs = Math.min(1000 * 2 ** (n - 1), 30_000);
      const cause = options.cause(error);
      options.logger.warn(
        { attempt: n, retryInSeconds: waitMs / 1000, cause },
        `${what} cannot be reached; retrying`,
      );
      options.waiting?.(`${what} cannot be reached (${cause}); retrying`);
      await sleep(waitMs, options.stop).catch(() => {});
    }
  }
  return undefined;
}
