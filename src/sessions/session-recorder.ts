import type { Logger } from '../ports/logger.js';
import type { Checkpoint, ResearchEvent, ResearchOutcome } from '../ports/research.js';
import { outageLog, untilWritten } from '../store/database-outage.js';
import type { OutboxIntent } from './records/outbox-intent.js';
import type { SessionLifecycle } from './records/session-lifecycle.js';
import type { SessionStatus } from './records/session-status.js';
import { isStoredEvent, type SessionStore } from './records/session-store.js';

/**
 * Persists one running session: events appended in order (batched, since
 * research emits synchronously), a checkpoint after every step, the move to
 * `reporting` when the report is being written, and where the session comes
 * to rest (each status write through the lifecycle's transition table). While the database is
 * unavailable every write waits for it (the session pauses at its next
 * checkpoint) until it returns or `signal` aborts; the lease rules still
 * decide whether the session is still ours when it does.
 */
export class SessionRecorder {
  private pending: ResearchEvent[] = [];
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  /** What the run spent by the engine's latest account (unpriced models at the dearest price), for the caps. */
  private spendUsd: number | null = null;
  private readonly outage: ReturnType<typeof outageLog>;

  /** `owner`: the worker's lease; every write then requires still holding it. */
  constructor(
    private readonly store: SessionStore,
    private readonly lifecycle: SessionLifecycle,
    private readonly sessionId: string,
    private readonly log: Logger,
    private readonly owner?: string,
    private readonly signal?: AbortSignal,
  ) {
    this.outage = outageLog(log, 'recording the session');
  }

  private write<T>(run: () => Promise<T>): Promise<T> {
    return untilWritten(run, { log: this.outage, signal: this.signal });
  }

  onEvent(event: ResearchEvent): void {
    if (event.type === 'usage') this.spendUsd = event.spendUsd;
    if (!isStoredEvent(event)) return;
    if (this.pending.push(event) === 1) setImmediate(() => void this.flush());
    if (event.type === 'phase' && event.phase === 'report') {
      this.writing = this.writing
        .then(() => this.write(() => this.lifecycle.reporting(this.sessionId, this.owner)))
        .catch((err) => this.log.error({ err, sessionId: this.sessionId }, 'could not store session status'));
    }
  }

  /** Waits until every event emitted so far is stored. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.writing = this.writing
        .then(() => this.write(() => this.store.appendEvents(this.sessionId, batch, this.owner)))
        .catch((err) => {
          this.failure ??= err;
          this.log.error({ err, sessionId: this.sessionId }, 'could not store session events');
        });
    }
    return this.writing;
  }

  /** A checkpoint is written only after the events before it; a lost lease or lost events stop the session here. */
  async checkpoint(checkpoint: Checkpoint): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    await this.write(() => this.store.saveCheckpoint(checkpoint, this.owner));
  }

  /**
   * Records where the session came to rest, with the Slack writes that show
   * it: a Slack report is `delivering` until the requester can read it.
   * `held`: the process waits for the requester itself, keeping the lease.
   */
  async finish(outcome: ResearchOutcome, intents: OutboxIntent[] = [], held = false): Promise<SessionStatus> {
    await this.flush();
    const { view } = outcome;
    if (outcome.kind === 'needs_clarification') {
      await this.write(() => this.lifecycle.awaitAnswers(this.sessionId, this.owner, intents));
      return 'clarifying';
    }
    if (outcome.kind === 'needs_plan_review') {
      const seconds = held ? null : outcome.seconds;
      await this.write(() => this.lifecycle.awaitStart(this.sessionId, this.owner, seconds, intents));
      return 'reviewing';
    }
    const report = outcome.kind === 'done' ? outcome.report : outcome.found;
    const to = outcome.kind === 'cancelled' ? 'cancelled' : intents.length ? 'delivering' : 'done';
    const ending = { plan: view.plan ?? undefined, report, costUsd: this.spendUsd };
    // Usage first: a reader who sees the session ended sees what it used, and a crash between the two
    // writes leaves a session that resumes and writes both again, never an ended one without its usage.
    await this.write(() => this.store.saveUsage(this.sessionId, view.usage));
    await this.write(() => this.lifecycle.finish(this.sessionId, to, ending, this.owner, intents));
    return to;
  }

  async fail(message: string, intents: OutboxIntent[] = []): Promise<void> {
    await this.flush();
    await this.write(() =>
      this.lifecycle.finish(
        this.sessionId,
        'failed',
        { error: message, costUsd: this.spendUsd },
        this.owner,
        intents,
      ),
    );
  }
}
