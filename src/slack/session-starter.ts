import type { Logger } from '../ports/logger.js';
import type { Checkpoint, SharedFiles } from '../ports/research.js';
import type { Refusal } from '../sessions/admission.js';
import type { OutboxStore } from '../sessions/records/outbox-store.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import type { SpendStore } from '../sessions/records/spend-store.js';
import type { SessionService } from '../sessions/session-service.js';
import type { SpendCaps } from '../sessions/spend-caps.js';
import { noticeMessage } from './render/messages.js';
import { POLICY_CHANGED, THREAD_BUSY, THREAD_DELIVERING, tooManySessions } from './render/refusals.js';
import { SessionThread } from './thread/session-thread.js';

export interface SessionStarterDeps {
  sessions: SessionStore;
  /** The session's use cases (admission included). */
  service: SessionService;
  outbox: OutboxStore;
  /** Look at the outbox now (the dispatcher's nudge). */
  deliver: () => void;
  log: Logger;
  newSessionId: () => string;
  /** How long a plan waits for [Start now] before research starts by itself; 0: at once. */
  planReviewSeconds: number;
  /** Where spending is read, and the caps, for `/research usage`. */
  spend?: { store: SpendStore; caps: SpendCaps };
  /** How long a new session may wait for a worker before the thread is told it is queued. */
  queueNoticeMs?: number;
  /** Offers an earlier report a new question repeats (true: offered, nothing is started yet). */
  reuse?: { offer(s: NewThreadSession): Promise<boolean> };
}

/** A research about to be queued in a thread: where, by whom, and how it opens. */
export interface NewThreadSession {
  teamId: string;
  channelId: string;
  userId: string;
  threadTs: string;
  question: string;
  turn: number;
  previousResearch?: string;
  /** The thread's earlier messages, when the question was asked inside an existing discussion. */
  discussion?: { text: string; messages: number };
  /** The files shared in the thread up to the question. */
  files?: SharedFiles;
  role: 'root' | 'mention';
  roleTs: string;
  /** A continued research's first checkpoint (see SessionService.continueFrom), under its own id. */
  continued?: Checkpoint;
  /** A new question in a new thread: an earlier report it repeats is offered first. */
  offerReuse?: boolean;
}

/** Starts Slack sessions: decides whether one may start, and queues it in its thread. */
export class SessionStarter {
  constructor(private readonly deps: SessionStarterDeps) {}

  /**
   * A queued session in its thread, with the opener's :eyes:, and a queue
   * notice if no worker takes it soon; or, when admission refuses it (the
   * limits are decided there, atomically), the sentence that says why.
   */
  async create(s: NewThreadSession): Promise<string | undefined> {
    if (s.offerReuse && (await this.deps.reuse?.offer(s))) return undefined;
    const id = s.continued?.sessionId ?? this.deps.newSessionId();
    const thread = new SessionThread({
      sessionId: id,
      channelId: s.channelId,
      threadTs: s.threadTs,
      mentionTs: s.role === 'mention' ? s.roleTs : undefined,
    });
    const started = await this.deps.service.queue(
      {
        session: {
          id,
          origin: 'slack',
          teamId: s.teamId,
          channelId: s.channelId,
          threadTs: s.threadTs,
          turn: s.turn,
          requester: s.userId,
          question: s.question,
        },
        request: {
          previousResearch: s.previousResearch,
          discussion: s.discussion,
          files: s.files,
          ...(this.deps.planReviewSeconds > 0
            ? { planReview: { seconds: this.deps.planReviewSeconds } }
            : {}),
        },
        checkpoint: s.continued,
      },
      {
        opener: { role: s.role, ts: s.roleTs },
        intents: s.role === 'mention' ? [thread.react('eyes')] : [],
      },
    );
    if (!started.started) {
      this.deps.log.info({ team: s.teamId, refusal: started.refusal.kind }, 'research refused');
      return refusalText(started.refusal);
    }
    if (s.role === 'mention') this.deps.deliver();
    // Say so only if no worker has taken it after a moment: a free worker starts within a poll.
    const timer = setTimeout(() => {
      this.tellQueuePosition(id, s.channelId, s.threadTs).catch((err) =>
        this.deps.log.error({ err, sessionId: id }, 'could not post the queue position'),
      );
    }, this.deps.queueNoticeMs ?? 5000);
    timer.unref();
    this.deps.log.info(
      { sessionId: id, team: s.teamId, channel: s.channelId, turn: s.turn },
      'research requested',
    );
    return undefined;
  }

  private async tellQueuePosition(id: string, channelId: string, threadTs: string): Promise<void> {
    const row = await this.deps.sessions.get(id);
    // A worker's claim makes it 'running' in the same statement, so 'queued' means nobody has it yet.
    if (row?.status !== 'queued') return;
    const ahead = await this.deps.sessions.queuePosition(id);
    const others =
      ahead === 0
        ? 'It is next in line'
        : `${ahead} research ${ahead === 1 ? 'session is' : 'sessions are'} ahead of it`;
    const notice = noticeMessage(
      `:hourglass: Waiting for a free research worker. ${others}. (session ${id})`,
    );
    await this.deps.outbox.add(id, [
      new SessionThread({ sessionId: id, channelId, threadTs }).notice('queued', notice),
    ]);
    this.deps.deliver();
  }

  /**
   * Why a new research cannot start, or undefined (the session room's early
   * check: a request sure to be refused is told so before anything is posted).
   */
  async refusal(
    who: { userId: string; teamId: string; channelId?: string; threadTs?: string },
    question?: string,
  ): Promise<string | undefined> {
    const asker = {
      requester: who.userId,
      teamId: who.teamId,
      channelId: who.channelId,
      threadTs: who.threadTs,
    };
    const refusal = await this.deps.service.refusal(asker, question);
    return refusal && refusalText(refusal);
  }
}

/** A refusal as the thread or the person is told it. */
export function refusalText(refusal: Refusal): string {
  if (refusal.kind === 'thread_busy') return refusal.delivering ? THREAD_DELIVERING : THREAD_BUSY;
  if (refusal.kind === 'too_many') return tooManySessions(refusal.active, refusal.limit)!;
  if (refusal.kind === 'policy_changed') return POLICY_CHANGED;
  return refusal.sentence;
}
