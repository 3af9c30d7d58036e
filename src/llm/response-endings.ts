/** A notice is kept this long for a poller that is between waits (retrieving) when it arrives. */
const KEEP_MS = 10 * 60_000;
/** Notices kept at most (a flood of verified webhooks for other processes' requests stays bounded). */
const MAX_KEPT = 10_000;

/**
 * Notices that hosted requests have ended (OpenAI's `response.*` webhooks,
 * verified by whoever received them), for the pollers of this process: a
 * poller waiting on a request wakes at once instead of at its next poll. A
 * notice only wakes a poller, which then reads the request from the API
 * itself: nothing in a notice is trusted beyond the request id.
 */
export class ResponseEndings {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly noticed = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Request `id` has ended; says whether a poller of this process was waiting on it. */
  notice(id: string): boolean {
    const waiting = this.waiters.get(id);
    if (waiting?.size) {
      for (const wake of waiting) wake();
      return true;
    }
    this.noticed.delete(id);
    this.noticed.set(id, this.now());
    for (const [old, at] of this.noticed) {
      if (this.noticed.size <= MAX_KEPT && this.now() - at < KEEP_MS) break;
      this.noticed.delete(old);
    }
    return false;
  }

  /** Waits `ms`, or until request `id` is noticed to have ended (at once when it already was). */
  wait(id: string, ms: number, signal: AbortSignal): Promise<void> {
    const at = this.noticed.get(id);
    if (at !== undefined) {
      this.noticed.delete(id);
      if (this.now() - at < KEEP_MS) return Promise.resolve();
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    const waiting = this.waiters.get(id) ?? new Set();
    this.waiters.set(id, waiting);
    return new Promise<void>((resolve, reject) => {
      // Every listener goes when the wait ends, however it ends (polls repeat for as long as a task runs).
      const done = (error?: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        waiting.delete(wake);
        if (!waiting.size) this.waiters.delete(id);
        if (error === undefined) resolve();
        else reject(error);
      };
      const wake = () => done();
      const aborted = () => done(signal.reason);
      const timer = setTimeout(wake, ms);
      signal.addEventListener('abort', aborted, { once: true });
      waiting.add(wake);
    });
  }
}
