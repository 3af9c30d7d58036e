import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * Runs a session's work with its id attached to everything it starts, so an
 * error nobody caught (an unhandled rejection deep in an adapter) can still be
 * logged with the session it belongs to.
 */
export function inSession<T>(sessionId: string, run: () => T): T {
  return scope.run(sessionId, run);
}

/** The session whose work is running now, if any. */
export function currentSessionId(): string | undefined {
  return scope.getStore();
}
