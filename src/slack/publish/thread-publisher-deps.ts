import type { Clock } from '../../ports/clock.js';
import type { OutboxStore } from '../../sessions/records/outbox-store.js';
import type { SessionStore } from '../../sessions/records/session-store.js';
import type { EditScheduler } from '../delivery/edit-scheduler.js';
import type { Dispatcher } from '../delivery/outbox-dispatcher.js';
import type { ReportFormat } from '../thread/report-intents.js';
import type { SetStatus } from './assistant-status.js';
import type { AppendStream } from './progress-streamer.js';

/** What a thread publisher writes through, and how it shows a session. */
export interface ThreadPublisherDeps {
  outbox: OutboxStore;
  dispatcher: Dispatcher;
  edits: EditScheduler;
  sessions: SessionStore;
  clock: Clock;
  /** How often the progress message refreshes its elapsed time when nothing else changes. */
  tickMs?: number;
  /** The assistant view's status line, for sessions in direct-message threads. */
  setStatus?: SetStatus;
  /** Canvas and summary, or the report as messages (REPORT_FORMAT); with `messages`, progress is not streamed either. */
  reportFormat: ReportFormat;
  /** The pre-flight estimate shown with a plan under review. */
  estimatePlan: () => Promise<string>;
  /** Live updates of a streamed progress message. */
  appendStream?: AppendStream;
  appendIntervalMs?: number;
}
