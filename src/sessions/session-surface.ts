import type { Logger } from '../ports/logger.js';
import type { ResearchEvent, ResearchOutcome, SessionView } from '../ports/research.js';
import type { OutboxIntent } from './records/outbox-intent.js';
import type { SessionRow } from './records/session-store.js';

/** How a session came to rest, as a surface shows it. */
export type Settled = ResearchOutcome | { kind: 'failed'; message: string };

/**
 * Where a running session is shown besides the store (a Slack thread). The
 * runner feeds it every event, asks it for the writes that show the outcome
 * (recorded with the session's status in one statement, then delivered
 * durably), and closes it when the session comes to rest or is handed back.
 */
export interface SessionSurface {
  onEvent(event: ResearchEvent): void;
  outcomeIntents(settled: Settled): Promise<OutboxIntent[]>;
  close(): Promise<void>;
}

/** A surface for a session about to run, from its row and its view at the checkpoint (none: not shown). */
export type SurfaceFactory = (
  session: SessionRow,
  view: SessionView,
  log: Logger,
) => Promise<SessionSurface | undefined>;
