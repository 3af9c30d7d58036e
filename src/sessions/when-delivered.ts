import type { SessionRow, SessionStore } from './records/session-store.js';

/**
 * How long an action on a report waits for its delivery to end: a thread
 * shows the summary (with its buttons) before the report's file and final
 * edits are in, and a person who clicks at once means the report they see.
 */
const DELIVERY_WAIT_MS = 30_000;
const LOOK_EVERY_MS = 250;

/** The session once its delivery is over (or the wait is), as the store has it then; null if it is gone. */
export async function whenDelivered(
  sessions: Pick<SessionStore, 'get'>,
  row: SessionRow,
  waitMs = DELIVERY_WAIT_MS,
): Promise<SessionRow | null> {
  const until = Date.now() + waitMs;
  let now: SessionRow | null = row;
  while (now?.status === 'delivering' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, LOOK_EVERY_MS));
    now = await sessions.get(row.id);
  }
  return now;
}
