import type { ResearchEvent } from '../engine/events.js';
import type { SessionOutcome } from '../engine/run-session.js';
import type { SessionState } from '../engine/session-state.js';
import type { Logger } from '../ports/logger.js';
import type { SessionRow } from '../store/session-store.js';

/** How a session came to rest, as a surface shows it. */
export type Settled = SessionOutcome | { kind: 'failed'; message: string };

/**
 * Where a running session is shown besides the store (a Slack thread). The
 * worker feeds it every event, lets it publish the outcome before the status
 * is recorded (so a crash in between publishes again on resume, editing the
 * same messages), and closes it when the session is handed back.
 */
export interface SessionSurface {
  onEvent(event: ResearchEvent): void;
  /** Never throws: publishing trouble is the surface's to log. */
  settle(settled: Settled): Promise<void>;
  close(): Promise<void>;
}

export type SurfaceFactory = (
  session: SessionRow,
  state: SessionState,
  log: Logger,
) => Promise<SessionSurface | undefined>;
