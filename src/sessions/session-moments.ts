import type { Logger } from '../ports/logger.js';
import type { Source } from '../ports/report.js';
import type { SessionStatus } from './records/session-status.js';
import type { SessionRow, SessionStore } from './records/session-store.js';
import type { ResearchBackends } from './research-backends.js';
import type { Settled } from './session-surface.js';

/** A session came to rest after a run (the status it rests in, and how). */
export interface SessionSettled {
  session: SessionRow;
  settled: Settled;
  status: SessionStatus;
}

/** A report its readers can now see: in its Slack thread, or in the store for a terminal's or worker's session. */
export interface ReportPublished {
  sessionId: string;
  teamId: string | null;
  channelId: string | null;
  threadTs: string | null;
  version: number;
  sources: Source[];
}

type Listener<T> = (moment: T) => void | Promise<void>;

/**
 * The moments of a session other parts subscribe to, so a later feature
 * (a library of reports, questions asked of a report) hooks in here without
 * editing the worker or the delivery. Listeners run after the moment is
 * stored; one that fails is logged and changes nothing for the others.
 */
export class SessionMoments {
  private readonly startedListeners = new Set<Listener<SessionRow>>();
  private readonly settledListeners = new Set<Listener<SessionSettled>>();
  private readonly publishedListeners = new Set<Listener<ReportPublished>>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly research: ResearchBackends,
    private readonly log: Logger,
  ) {}

  /** A run of the session begins here (first run, after answers or a review, or taken over). */
  onStarted(listener: Listener<SessionRow>): () => void {
    this.startedListeners.add(listener);
    return () => this.startedListeners.delete(listener);
  }

  onSettled(listener: Listener<SessionSettled>): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  onReportPublished(listener: Listener<ReportPublished>): () => void {
    this.publishedListeners.add(listener);
    return () => this.publishedListeners.delete(listener);
  }

  /** Told by the runner as a run begins. */
  started(session: SessionRow): void {
    this.tell(this.startedListeners, session, session.id);
  }

  /** Told by the runner; a session that rests `done` has nothing left to deliver: its report is published. */
  settled(moment: SessionSettled): void {
    this.tell(this.settledListeners, moment, moment.session.id);
    if (moment.status === 'done') void this.delivered(moment.session.id);
  }

  /**
   * Told by delivery: the session came to rest there, its report in its
   * thread (`done`), or failed because its thread could not be posted.
   */
  async rested(sessionId: string, status: 'done' | 'failed'): Promise<void> {
    if (status === 'done') return this.delivered(sessionId);
    try {
      const row = await this.sessions.get(sessionId);
      const settled = { kind: 'failed', message: row?.error ?? 'its thread could not be posted' } as const;
      if (row) this.tell(this.settledListeners, { session: row, settled, status }, sessionId);
    } catch (err) {
      this.log.error({ err, sessionId }, 'could not announce a failed session');
    }
  }

  /** Told by delivery once the report is in its thread (the session moved to `done`). */
  async delivered(sessionId: string): Promise<void> {
    // Nobody listening: the moment costs no reads.
    if (this.publishedListeners.size === 0) return;
    try {
      const row = await this.sessions.get(sessionId);
      const checkpoint = row?.report ? await this.sessions.loadCheckpoint(sessionId) : null;
      if (!row?.report || !checkpoint) return;
      const moment: ReportPublished = {
        sessionId,
        teamId: row.teamId,
        channelId: row.channelId,
        threadTs: row.threadTs,
        version: this.research.view(checkpoint).reportVersion,
        sources: row.report.sources,
      };
      this.tell(this.publishedListeners, moment, sessionId);
    } catch (err) {
      this.log.error({ err, sessionId }, 'could not announce a published report');
    }
  }

  private tell<T>(listeners: Set<Listener<T>>, moment: T, sessionId: string): void {
    for (const listener of listeners) {
      Promise.resolve()
        .then(() => listener(moment))
        .catch((err) => this.log.error({ err, sessionId }, 'a session moment listener failed'));
    }
  }
}
