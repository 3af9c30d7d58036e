import type { ResearchEvent } from '../../engine/events.js';
import { initialProgress, type Progress, reduceProgress } from '../../engine/progress.js';
import { reportDocument, usageFooter } from '../../engine/report-markdown.js';
import type { FinalReport, SessionState } from '../../engine/session-state.js';
import type { SessionSurface, Settled } from '../../jobs/session-surface.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { SessionRow, SessionStore } from '../../store/session-store.js';
import {
  clarifyMessage,
  type Ending,
  noticeMessage,
  planMessage,
  progressMessage,
  reportMessages,
  rootMessage,
  type SlackMessage,
  sourcesMessages,
} from '../render/messages.js';
import { safeText } from '../render/mrkdwn.js';
import type { SlackApi } from '../slack-api.js';
import type { EditScheduler, EditTarget } from './edit-scheduler.js';

export interface ThreadPublisherDeps {
  api: SlackApi;
  edits: EditScheduler;
  sessions: SessionStore;
  clock: Clock;
  /** How often the progress message refreshes its elapsed time when nothing else changes. */
  tickMs?: number;
}

/** Reactions on the user's own message when a mention (or DM) started the session: the bot cannot edit it. */
const REACTION: Record<Ending['kind'], string> = {
  done: 'white_check_mark',
  failed: 'x',
  cancelled: 'no_entry_sign',
  expired: 'hourglass',
};

/**
 * Publishes one session to its Slack thread: plan, one live progress message
 * (edited through the shared scheduler), then the report, sources, report.md
 * and the root's status. Every message it posts is recorded by role, so a
 * session resumed by another worker edits the same messages instead of
 * posting new ones. Publishing never throws into the research.
 */
export class ThreadPublisher implements SessionSurface {
  private chain: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly deps: ThreadPublisherDeps,
    private readonly row: SessionRow & { teamId: string; channelId: string; threadTs: string },
    private readonly owned: Map<string, { channelId: string; ts: string }>,
    private progress: Progress,
    private startedAt: number | null,
    private readonly log: Logger,
  ) {}

  /** A publisher for a Slack session, resuming from what the thread already shows; undefined for other sessions. */
  static async open(
    deps: ThreadPublisherDeps,
    row: SessionRow,
    state: SessionState,
    log: Logger,
  ): Promise<ThreadPublisher | undefined> {
    if (row.origin !== 'slack' || !row.teamId || !row.channelId || !row.threadTs) return undefined;
    const owned = await deps.sessions.slackMessages(row.id);
    const events = await deps.sessions.listEvents(row.id);
    const progress = events.reduce((p, { event }) => reduceProgress(p, event), initialProgress());
    const publisher = new ThreadPublisher(
      deps,
      { ...row, teamId: row.teamId, channelId: row.channelId, threadTs: row.threadTs },
      owned,
      progress,
      state.startedAt,
      log,
    );
    if (owned.has('progress')) publisher.startTicking();
    return publisher;
  }

  onEvent(event: ResearchEvent): void {
    if (this.closed) return;
    this.progress = reduceProgress(this.progress, event);
    if (event.type === 'phase' && event.phase === 'plan' && this.startedAt === null)
      this.startedAt = this.now();
    if (event.type === 'plan_done') this.enqueue(() => this.showPlan(event.plan));
    else this.refresh();
  }

  async settle(settled: Settled): Promise<void> {
    this.stopTicking();
    if (this.closed) return;
    this.enqueue(() => this.publishOutcome(settled));
    await this.chain;
    this.closed = true;
  }

  async close(): Promise<void> {
    this.stopTicking();
    this.closed = true;
    await this.chain;
  }

  private async showPlan(plan: string): Promise<void> {
    if (!this.owned.has('plan')) await this.put('plan', planMessage(plan));
    if (!this.owned.has('progress')) await this.put('progress', this.progressNow());
    this.startTicking();
  }

  private async publishOutcome(settled: Settled): Promise<void> {
    const id = this.row.id;
    if (settled.kind === 'needs_clarification') {
      const questions = settled.state.request.clarification?.questions ?? '';
      await this.put('clarify', clarifyMessage(questions, id, { kind: 'open' }));
      return;
    }
    let ending: Ending;
    let report: FinalReport | null = null;
    if (settled.kind === 'done') {
      report = settled.report;
      ending = { kind: 'done', sources: report.sources.length, durationMs: report.durationMs };
    } else if (settled.kind === 'cancelled') {
      const by = (await this.deps.sessions.get(id))?.cancelledBy ?? undefined;
      ending = { kind: 'cancelled', by };
      if (settled.found?.markdown.trim()) report = settled.found;
    } else {
      ending = { kind: 'failed', reason: settled.message };
    }

    this.finishProgress(ending);
    if (settled.kind === 'cancelled') {
      const by = ending.kind === 'cancelled' && ending.by ? ` by <@${ending.by}>` : '';
      await this.put(
        'notice',
        noticeMessage(
          `:no_entry: Research cancelled${by}.${report ? ' Here is what was found so far.' : ''} (session ${id})`,
        ),
      );
    }
    if (settled.kind === 'failed') {
      await this.put(
        'notice',
        noticeMessage(`:x: The research failed: ${safeText(sentence(settled.message))} (session ${id})`),
      );
    }
    if (report && settled.kind !== 'failed') {
      const footer = usageFooter(report, settled.state.usage, id);
      await this.putAll('report', reportMessages(report));
      await this.putAll('sources', sourcesMessages(report, footer));
      await this.uploadOnce(report, footer);
      if (ending.kind === 'done') {
        const first = this.owned.get('report:0');
        ending.reportLink = first ? await this.deps.api.permalink(first.channelId, first.ts) : undefined;
      }
    }
    await this.finishRoot(ending);
  }

  /**
   * The last states of the progress and root messages are handed to the
   * scheduler as finals without waiting for them: under a saturated edit
   * budget they go out first, and the worker moves on.
   */
  private finishProgress(ending: Ending): void {
    const target = this.target('progress');
    if (target) {
      this.deps.edits.update(target, progressMessage(this.progress, this.elapsed(), this.row.id, ending), {
        final: true,
      });
    }
  }

  /** Every edit goes through the shared scheduler: the workspace's budget and 429s apply to it too. */
  private async edit(role: string, message: SlackMessage): Promise<void> {
    const target = this.target(role)!;
    this.deps.edits.update(target, message);
    await this.deps.edits.flush(target);
  }

  private async finishRoot(ending: Ending): Promise<void> {
    const root = this.target('root');
    if (root) {
      this.deps.edits.update(root, rootMessage(this.row.requester, this.row.question, ending), {
        final: true,
      });
      return;
    }
    const mention = this.owned.get('mention');
    if (mention) {
      await this.deps.api.unreact(mention.channelId, mention.ts, 'eyes');
      await this.deps.api.react(mention.channelId, mention.ts, REACTION[ending.kind]);
    }
  }

  private async uploadOnce(report: FinalReport, footer: string): Promise<void> {
    if (this.owned.has('file')) return;
    const document = reportDocument(this.row.question, report, footer);
    await this.deps.api.upload(
      this.row.channelId,
      this.row.threadTs,
      'report.md',
      document,
      'Research report',
    );
    // Files have no message ts we could edit later; the record only says "already uploaded".
    await this.record('file', this.row.channelId, 'uploaded');
  }

  /** Posts a series of messages (or edits the ones an earlier attempt posted) and removes leftovers. */
  private async putAll(prefix: string, messages: SlackMessage[]): Promise<void> {
    for (const [i, message] of messages.entries()) await this.put(`${prefix}:${i}`, message);
    for (let i = messages.length; this.owned.has(`${prefix}:${i}`); i++) {
      const old = this.owned.get(`${prefix}:${i}`)!;
      await this.deps.api.remove(old.channelId, old.ts);
    }
  }

  private async put(role: string, message: SlackMessage): Promise<void> {
    if (this.owned.has(role)) {
      await this.edit(role, message);
      return;
    }
    const ts = await this.deps.api.post(this.row.channelId, message, this.row.threadTs);
    await this.record(role, this.row.channelId, ts);
  }

  private async record(role: string, channelId: string, ts: string): Promise<void> {
    this.owned.set(role, { channelId, ts });
    await this.deps.sessions.recordSlackMessage(this.row.id, role, channelId, ts);
  }

  private refresh(): void {
    const target = this.target('progress');
    if (target && !this.closed) this.deps.edits.update(target, this.progressNow());
  }

  private progressNow(): SlackMessage {
    return progressMessage(this.progress, this.elapsed(), this.row.id);
  }

  private target(role: string): EditTarget | undefined {
    const owned = this.owned.get(role);
    return owned && { team: this.row.teamId, channel: owned.channelId, ts: owned.ts, sessionId: this.row.id };
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain
      .then(step)
      .catch((err) =>
        this.log.error({ err, sessionId: this.row.id }, 'could not publish to the Slack thread'),
      );
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

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
