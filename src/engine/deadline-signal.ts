/**
 * A signal that aborts after `ms` or when any of `parents` does, for the
 * length of `run` only. AbortSignal.timeout and AbortSignal.any keep their
 * timer and their hold on the parents until the timeout fires (up to a
 * session's whole time budget), so thousands of finished calls' signals
 * stayed alive in a busy process; here both go as soon as `run` settles.
 */
export async function withDeadline<T>(
  ms: number,
  parents: (AbortSignal | undefined)[],
  run: (signal: AbortSignal, timedOut: () => boolean) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(
    () => {
      expired = true;
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    },
    Math.max(0, ms),
  );
  const live = parents.filter((p): p is AbortSignal => p !== undefined);
  const follow = (parent: AbortSignal) => () => controller.abort(parent.reason);
  const listeners = live.map((parent) => [parent, follow(parent)] as const);
  for (const [parent, listener] of listeners) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', listener, { once: true });
  }
  try {
    return await run(controller.signal, () => expired);
  } finally {
    clearTimeout(timer);
    for (const [parent, listener] of listeners) parent.removeEventListener('abort', listener);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
