import { randomUUID } from 'node:crypto';
import type { Logger } from '../../ports/logger.js';
import { initialProgress, type Progress, reduceProgress } from '../../ports/progress.js';
import type { ResearchEvent, SessionView } from '../../ports/research.js';
import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import type { SessionRow, SlackMessageRef } from '../../sessions/records/session-store.js';
import type { SessionSurface, Settled } from '../../sessions/session-surface.js';
import { progressMessage, type SlackMessage } from '../render/messages.js';
import { type PlanContext, planMessage } from '../render/plan-message.js';
import { startChunks } from '../render/progress-chunks.js';
import { SessionThread } from '../thread/session-thread.js';
import { settledIntents } from '../thread/settled-intents.js';
import { roleKey, ThreadMessages } from '../thread/thread-roles.js';
import { AssistantStatus, statusText } from './assistant-status.js';
import { ProgressStreamer } from './progress-streamer.js';
import type { ThreadPublisherDeps } from './thread-publisher-deps.js';

/**
 * Shows one running session in its Slack thread. The plan, the progress
 * message and the outcome (report, sources, report.md, final states) are
 * outbox intents, delivered durably; only the live refreshes of the progress
 * message go straight to the edit scheduler, since each one replaces the last
 * and a lost one is replaced by the next. Never throws into the research.
 */
export class ThreadPublisher implements SessionSurface {
  private timer?: NodeJS.Timeout;
  private closed = false;
  private lookedUpAt = 0;
  private readonly unsubscribe: () => void;
  private readonly status?: AssistantStatus;
  private streamer?: ProgressStreamer;
  private plan: string | null = null;
  /** What research was given besides the question, said under the plan. */
  private given?: PlanContext;
  /** Research starts in this run without a plan_done event: after a review (`edit` the plan) or continued (`none`). */
  private startsHere?: 'edit' | 'none';

  private constructor(
    private readonly deps: ThreadPublisherDeps,
    private readonly row: SessionRow,
    private readonly thread: SessionThread,
    private readonly owned: ThreadMessages<SlackMessageRef>,
    private progress: Progress,
    private startedAt: number | null,
    private readonly log: Logger,
  ) {
    // Direct-message threads may be assistant-view threads: their status line says what is happening.
    if (deps.setStatus && row.channelId?.startsWith('D') && row.threadTs) {
      this.status = new AssistantStatus(
        deps.setStatus,
        { channel: row.channelId, threadTs: row.threadTs },
        log,
      );
    }
    this.unsubscribe = deps.dispatcher.onDelivered((d) => {
      if (d.sessionId !== row.id) return;
      this.owned.set(d.role, { channelId: d.channelId, ts: d.ts, streaming: d.streaming });
      if (d.role === roleKey({ kind: 'progress' })) this.startTicking();
    });
  }

  /** A publisher for a Slack session, resuming from what the thread already shows; undefined for other sessions. */
  static async open(
    deps: ThreadPublisherDeps,
    row: SessionRow,
    view: SessionView,
    log: Logger,
  ): Promise<ThreadPublisher | undefined> {
    if (row.origin !== 'slack' || !row.teamId || !row.channelId || !row.threadTs) return undefined;
    const owned = new ThreadMessages(await deps.sessions.slackMessages(row.id));
    const events = await deps.sessions.listEvents(row.id);
    const progress = events.reduce((p, { event }) => reduceProgress(p, event), initialProgress());
    const thread = SessionThread.of(row, owned.get({ kind: 'mention' })?.ts);
    const publisher = new ThreadPublisher(deps, row, thread, owned, progress, view.startedAt, log);
    publisher.plan = view.plan;
    publisher.given = { ...view, policy: row.policy?.summary };
    if (view.phase === 'review') publisher.startsHere = 'edit';
    else if (view.phase === 'research' && !owned.has({ kind: 'progress' }) && view.reportVersion > 1)
      publisher.startsHere = 'none';
    if (owned.has({ kind: 'progress' })) publisher.startTicking();
    // Research starts or goes on here: the thread's agent session says the app is working (its first run names it).
    const opening = row.turn === 1 &&
      events.length === 0 && { title: row.question, initiator: row.requester };
    publisher.record([thread.agentStatus('processing', `run:${randomUUID()}`, opening || undefined)]);
    return publisher;
  }

  onEvent(event: ResearchEvent): void {
    if (this.closed) return;
    this.progress = reduceProgress(this.progress, event);
    if (event.type === 'phase' && event.phase === 'plan' && this.startedAt === null)
      this.startedAt = this.now();
    if (event.type === 'plan_done') {
      this.plan = event.plan;
      // A plan under review is posted with the outcome, with its estimate and buttons.
      if (!event.review) this.showPlan(event.plan);
    } else if (event.type === 'phase' && event.phase === 'research' && this.startsHere && this.plan) {
      // After a review the plan loses its buttons; a continued research shows only its progress.
      const plan = this.startsHere;
      this.startsHere = undefined;
      // Time spent on the plan (or since the earlier version) is not research time.
      this.startedAt = this.now();
      this.showPlan(this.plan, plan);
    } else this.refresh();
    this.status?.show(statusText(this.progress));
  }

  /** The writes that show how the session came to rest; the worker records them with its status. */
  async outcomeIntents(settled: Settled): Promise<OutboxIntent[]> {
    this.stopTicking();
    // Slack clears the status when the report is posted in the thread.
    this.status?.close();
    return settledIntents(settled, {
      thread: this.thread,
      row: this.row,
      progress: this.progress,
      elapsedMs: this.elapsed(),
      streams: this.streams,
      plan: this.plan,
      given: this.given,
      reportFormat: this.deps.reportFormat,
      estimatePlan: () => this.deps.estimatePlan(),
      cancelledBy: async () => (await this.deps.sessions.get(this.row.id))?.cancelledBy ?? undefined,
    });
  }

  /** The intents are recorded: stop showing live state and let the dispatcher deliver them now. */
  async close(): Promise<void> {
    this.stopTicking();
    this.streamer?.close();
    this.status?.close();
    this.closed = true;
    this.unsubscribe();
    this.deps.edits.forget(this.row.id);
    this.deps.dispatcher.nudge();
  }

  /** Progress as a streamed message in plan mode, where Slack allows it (decided when it is sent). */
  private get streams(): boolean {
    return this.deps.reportFormat !== 'messages' && Boolean(this.deps.appendStream);
  }

  /** The plan (posted, or after its review edited to its running form) and the live progress message. */
  private showPlan(plan: string, how: 'post' | 'edit' | 'none' = 'post'): void {
    const intents = [];
    const running = planMessage(plan, this.streams ? { sessionId: this.row.id } : undefined, this.given);
    if (how === 'edit') intents.push(this.thread.edit({ kind: 'plan' }, running));
    else if (how === 'post' && !this.owned.has({ kind: 'plan' }))
      intents.push(this.thread.post({ kind: 'plan' }, running));
    if (!this.owned.has({ kind: 'progress' })) {
      const message = this.progressNow();
      // Outside direct messages Slack streams to a named person: the requester.
      const dm = this.row.channelId?.startsWith('D');
      const recipient = dm ? undefined : { user: this.row.requester, team: this.row.teamId! };
      intents.push(
        this.streams
          ? this.thread.stream({ kind: 'progress' }, message, {
              chunks: startChunks(this.progress),
              recipient,
            })
          : this.thread.post({ kind: 'progress' }, message),
      );
    }
    // Marked as ours now, so the outcome edits them even if Slack has not taken them yet.
    for (const intent of intents)
      if (intent.op === 'post') this.owned.set(intent.role, { channelId: intent.channelId });
    this.record(intents);
    this.startTicking();
  }

  /** Writes shown while the session runs, delivered as soon as they are recorded. */
  private record(intents: OutboxIntent[]): void {
    this.deps.outbox.add(this.row.id, intents).then(
      () => this.deps.dispatcher.nudge(),
      (err) => this.log.error({ err, sessionId: this.row.id }, 'could not record writes for Slack'),
    );
  }

  /** A live refresh: an append to the stream, or an edit through the scheduler (newest wins). */
  private refresh(): void {
    const ref = this.owned.get({ kind: 'progress' });
    const ts = ref?.ts;
    if (this.closed) return;
    if (!ts) {
      if (this.owned.has({ kind: 'progress' })) void this.findProgress();
      return;
    }
    if (ref.streaming && this.deps.appendStream) {
      this.streamer ??= new ProgressStreamer(
        { channel: ref.channelId, ts, sessionId: this.row.id },
        this.deps.appendStream,
        (code) => {
          this.log.warn(
            { sessionId: this.row.id, code },
            'the progress stream ended early; editing it instead',
          );
          this.owned.set({ kind: 'progress' }, { ...ref, streaming: false });
          this.refresh();
        },
        this.log,
        () => this.now(),
        this.deps.appendIntervalMs,
      );
      this.streamer.push(this.progress);
      return;
    }
    const target = { team: this.row.teamId!, channel: this.row.channelId!, ts, sessionId: this.row.id };
    this.deps.edits.update(target, this.progressNow());
  }

  /** Another process's dispatcher may have posted the progress message: its ts is in the store. */
  private async findProgress(): Promise<void> {
    const now = this.now();
    if (now - this.lookedUpAt < 10_000) return;
    this.lookedUpAt = now;
    const stored = await this.deps.sessions.slackMessages(this.row.id).catch(() => undefined);
    const found = stored && new ThreadMessages(stored).get({ kind: 'progress' });
    if (found?.ts && !this.owned.get({ kind: 'progress' })?.ts) this.owned.set({ kind: 'progress' }, found);
  }

  private progressNow(): SlackMessage {
    return progressMessage(this.progress, this.elapsed(), this.row.id);
  }

  private startTicking(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.refresh(), this.deps.tickMs ?? 30_000);
    this.timer.unref();
  }

  private stopTicking(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private elapsed(): number {
    return this.startedAt === null ? 0 : this.now() - this.startedAt;
  }

  private now(): number {
    return this.deps.clock.now();
  }
}
