/**
 * Runs tasks one at a time per key (in this process), in the order they
 * arrive; tasks under different keys run side by side. A failed task does
 * not stop the ones after it.
 */
export function keyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.then(
      () => {},
      () => {},
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
