import type { KnowledgeStore } from '../../search/knowledge/knowledge-store.js';
import type { Database } from '../../store/database.js';
import type { FileReadStore } from '../../store/file-read-store.js';
import type { SourceTextStore } from '../../store/source-text-store.js';
import type { SteeringStore } from '../../store/steering-store.js';
import type { AnswerStore } from './answer-store.js';
import type { AuditStore } from './audit-store.js';
import type { FeedbackStore } from './feedback-store.js';
import type { OutboxStore } from './outbox-store.js';
import type { PolicyStore } from './policy-store.js';
import type { ScheduleStore } from './schedule-store.js';
import type { SessionLifecycle } from './session-lifecycle.js';
import type { SessionStore } from './session-store.js';
import type { SpendStore } from './spend-store.js';
import type { TerminalLifecycle } from './terminal-lifecycle.js';

/** The database and the repositories over it. */
export interface Store {
  db: Database;
  sessions: SessionStore;
  lifecycle: SessionLifecycle;
  outbox: OutboxStore;
  steering: SteeringStore;
  spend: SpendStore;
  /** The text of the sources research was shown, per session. */
  sources: SourceTextStore;
  /** Questions readers asked of reports, and the answers. */
  answers: AnswerStore;
  /** Readers' verdicts on reports. */
  feedback: FeedbackStore;
  /** How reading each file shared with a question went. */
  fileReads: FileReadStore;
  /** Foreground (terminal) sessions whose process went away. */
  terminals: TerminalLifecycle;
  /** The team knowledge base. */
  knowledge: KnowledgeStore;
  /** Research that repeats on a cadence. */
  schedules: ScheduleStore;
  /** Who did what, where and at what cost (append-only). */
  audit: AuditStore;
  /** Channel policies (who may start research where, with what). */
  policies: PolicyStore;
}
