import { isResearching, STEERABLE } from '../sessions/records/session-status.js';
import type { SessionRow } from '../sessions/records/session-store.js';
import { usageSummary } from '../sessions/spend-caps.js';
import { whenDelivered } from '../sessions/when-delivered.js';
import type { SlackApi } from './api/slack-api.js';
import { SlackCallError } from './api/slack-errors.js';
import { previousResearch } from './follow-up-context.js';
import { keyedQueue } from './keyed-queue.js';
import type { PlanReview } from './plan-review.js';
import { questionContext } from './question-context.js';
import { clarifyMessage, noticeMessage, rootMessage } from './render/messages.js';
import { CANNOT_POST } from './render/refusals.js';
import { statusList, USAGE } from './render/status-list.js';
import { SessionStarter, type SessionStarterDeps } from './session-starter.js';
import { closingIntents, threadOf } from './thread/closing-intents.js';

export interface SlackSessionsDeps extends SessionStarterDeps {
  api: SlackApi;
  /** The largest shared file research reads (FILE_MAX_MB). */
  fileMaxBytes: number;
  review: PlanReview;
  /** Questions about a thread's finished report (see SlackReportQuestions). */
  questions?: {
    isFor(latest: SessionRow, question: string): boolean;
    ask(report: SessionRow, message: PostedMessage): Promise<void>;
  };
}

export interface Place {
  teamId: string;
  channelId: string;
  userId: string;
}

export interface PostedMessage extends Place {
  ts: string;
  threadTs?: string;
  text: string;
  isDm: boolean;
  /** Files came with the message. */
  hasFiles?: boolean;
}

/**
 * The Slack side of sessions: starts them from commands, mentions and DMs,
 * takes clarification answers from the requester's thread replies, and
 * handles the buttons. It only writes to Postgres and posts short messages;
 * the research itself runs in a worker, which publishes to the thread.
 */
export class SlackSessions {
  private readonly starter: SessionStarter;
  /** Each person's /research commands, in turn. */
  private readonly commandsOf = keyedQueue();

  constructor(private readonly deps: SlackSessionsDeps) {
    this.starter = new SessionStarter(deps);
  }

  /** `/research <question>`: the root goes into the channel; returns an ephemeral reply when there is one. */
  async startFromCommand(place: Place, question: string): Promise<string | undefined> {
    // One person's commands are taken one at a time here, so a burst of them is refused before any root
    // is posted; admission still decides (across processes too), and a late refusal removes the root.
    return this.commandsOf(place.userId, () => this.startCommand(place, question));
  }

  private async startCommand(place: Place, question: string): Promise<string | undefined> {
    const refusal = await this.starter.refusal(place, question);
    if (refusal) return refusal;
    let rootTs: string;
    try {
      // Posted at once: its ts is the thread, and a refusal is answered to the person right here.
      rootTs = await this.deps.api.post(place.channelId, rootMessage(place.userId, question));
    } catch (error) {
      if (error instanceof SlackCallError && CANNOT_POST[error.code]) return CANNOT_POST[error.code];
      throw error;
    }
    const root = { threadTs: rootTs, role: 'root', roleTs: rootTs } as const;
    const refused = await this.starter.create({ ...place, ...root, question, turn: 1, offerReuse: true });
    // Refused between the early check and the decision (requests at once): the root announces nothing.
    if (refused)
      await this.deps.api
        .remove(place.channelId, rootTs)
        .catch((err) => this.deps.log.warn({ err, channel: place.channelId }, 'could not remove a root'));
    return refused;
  }

  /**
   * An @mention (or a DM): a new session in a thread under the message, or
   * in the thread it was posted in; in a finished thread, a follow-up with
   * the earlier research as context; the requester's mention in a thread
   * waiting for answers is the answer.
   */
  async onMention(message: PostedMessage): Promise<void> {
    const question = message.text.trim();
    const threadTs = message.threadTs ?? message.ts;
    const latest = (await this.deps.sessions.threadSessions(message.teamId, message.channelId, threadTs))[0];
    if (latest?.status === 'clarifying' && latest.requester === message.userId) {
      await this.answer(latest, question || null, message.userId, 'answered');
      return;
    }
    const reply = (text: string) =>
      this.deps.api.ephemeral(message.channelId, message.userId, noticeMessage(text), message.threadTs);
    // A question about the thread's finished report is answered from it; a new research starts as before.
    const questions = this.deps.questions;
    if (latest && questions?.isFor(latest, question)) {
      await questions.ask(latest, message);
      return;
    }
    if (!question) {
      await reply(
        `Ask me a question after the mention, e.g. _@Deep Research what changed in EU AI rules in 2025?_\n\n${USAGE}`,
      );
      return;
    }
    // A report still being delivered (its summary shown, its file on the way) is waited for, not refused as busy.
    const previous = latest && ((await whenDelivered(this.deps.sessions, latest)) ?? latest);
    const early = await this.starter.refusal({ ...message, threadTs }, question);
    // A new research: the discussion it was asked in and the files shared there come with it.
    const context =
      early || previous
        ? {}
        : await questionContext(this.deps.api, message, this.deps.fileMaxBytes, this.deps.log);
    const refusal =
      early ??
      (await this.starter.create({
        ...message,
        threadTs,
        question,
        turn: (previous?.turn ?? 0) + 1,
        // A deleted research is nothing to go on from.
        previousResearch: previous && !previous.deleted ? previousResearch(previous) : undefined,
        ...context,
        role: 'mention',
        roleTs: message.ts,
        offerReuse: !previous,
      }));
    if (refusal) {
      await reply(refusal);
      return;
    }
  }

  /** A reply in a thread that does not mention the bot: only the requester's answer to open questions counts. */
  async onThreadReply(message: PostedMessage & { threadTs: string }): Promise<void> {
    const latest = (
      await this.deps.sessions.threadSessions(message.teamId, message.channelId, message.threadTs)
    )[0];
    // A direct-message thread without research (opened in the Messages tab, say): the message is the question.
    if (!latest) {
      if (message.isDm) await this.onMention(message);
      return;
    }
    if (latest.status === 'clarifying') {
      if (latest.requester === message.userId)
        await this.answer(latest, message.text, message.userId, 'answered');
      return;
    }
    if (isResearching(latest.status)) {
      if (STEERABLE.includes(latest.status) && latest.requester === message.userId)
        await this.steer(latest.id, message);
      return;
    }
    // In a DM there is nobody else to talk to: a reply in a finished thread is a follow-up question.
    if (message.isDm) await this.onMention(message);
  }

  /**
   * The requester's reply while research runs: a note the orchestrator reads
   * at its next cycle, acknowledged with :memo: on the reply (best effort: the
   * note is stored either way).
   */
  private async steer(sessionId: string, message: PostedMessage): Promise<void> {
    const text = message.text.replace(/<@[A-Z0-9]+>/g, '');
    if (!(await this.deps.service.steer(sessionId, message.userId, text))) return;
    await this.deps.api
      .react(message.channelId, message.ts, 'memo')
      .catch((err) => this.deps.log.warn({ err, sessionId }, 'could not acknowledge a steering note'));
  }

  /**
   * [Start without answering] (only the requester may skip the questions) and
   * [Start now] on a plan under review (the requester or a workspace admin).
   * A repeated click finds nothing waiting and changes nothing.
   */
  async startNow(sessionId: string, userId: string): Promise<string | undefined> {
    const row = await this.deps.sessions.get(sessionId);
    if (!row) return 'That research no longer exists.';
    if (row.status === 'reviewing') return this.deps.review.start(row, userId);
    if (row.status !== 'clarifying') return undefined;
    if (row.requester !== userId) return `Only <@${row.requester}> can start this research.`;
    await this.answer(row, null, userId, 'skipped');
    return undefined;
  }

  /**
   * [Research more] under a report: a new session in the thread that goes on
   * from this one's final state (the requester or an admin; once per report,
   * and only from the thread's latest research).
   */
  async researchMore(sessionId: string, userId: string): Promise<string | undefined> {
    const asked = await this.deps.sessions.get(sessionId);
    if (!asked?.teamId || !asked.channelId || !asked.threadTs) return 'That research no longer exists.';
    if (asked.requester !== userId && !(await this.deps.api.isAdmin(userId)))
      return `Only <@${asked.requester}> (who asked) or a workspace admin can continue this research.`;
    const row = await whenDelivered(this.deps.sessions, asked);
    if (!row) return 'That research no longer exists.';
    if (row.status === 'delivering')
      return 'This report is still being delivered to the thread: click [Research more] again in a minute.';
    // Where a session is never changes: the place read before the wait holds.
    const { teamId, channelId, threadTs } = asked;
    const latest = (await this.deps.sessions.threadSessions(teamId, channelId, threadTs))[0];
    if (latest && latest.id !== row.id)
      return 'A later research in this thread already goes on from this one.';
    const continued = isResearching(row.status) ? null : await this.deps.service.continueFrom(row);
    if (!continued) return 'This research has no finished report to continue from.';
    const refusal = await this.starter.refusal({ userId, teamId });
    if (refusal) return refusal;
    const once = `research_more:${row.id}`;
    if (!(await this.deps.sessions.claimEvent(once))) return undefined;
    const { mentionTs } = (await threadOf(this.deps.sessions, row)).place;
    const refused = await this.starter.create({
      teamId,
      channelId,
      userId: row.requester,
      threadTs,
      question: row.question,
      turn: row.turn + 1,
      role: mentionTs ? 'mention' : 'root',
      roleTs: mentionTs ?? threadTs,
      continued,
    });
    if (refused) await this.deps.sessions.releaseEvent(once);
    return refused;
  }

  /** [Cancel] and `/research cancel`: the requester or a workspace admin; clicking twice changes nothing. */
  async cancel(sessionId: string, userId: string): Promise<string> {
    const row = await this.deps.sessions.get(sessionId);
    if (!row) return 'That research no longer exists.';
    if (!isResearching(row.status)) return 'This research has already finished.';
    if (row.requester !== userId && !(await this.deps.api.isAdmin(userId))) {
      return `Only <@${row.requester}> (who asked) or a workspace admin can cancel this research.`;
    }
    const ending = { kind: 'cancelled', by: userId } as const;
    const closing = async () =>
      closingIntents(this.deps.sessions, row, await this.deps.service.view(row.id), ending);
    if ((await this.deps.service.cancel(row, userId, closing)) === 'cancelled') {
      this.deps.deliver();
      return 'Cancelled.';
    }
    return 'Stopping the research; what was found so far will be posted in the thread.';
  }

  async cancelLatest(userId: string): Promise<string> {
    const latest = (await this.deps.sessions.activeSessions(userId))[0];
    if (!latest) return 'You have no research running.';
    return this.cancel(latest.id, userId);
  }

  /** `/research status`: the requester's running and recent sessions, with links to their threads. */
  async status(userId: string, teamDomain: string): Promise<string> {
    const active = await this.deps.sessions.activeSessions(userId);
    const recent = (await this.deps.sessions.listRecent({ requester: userId, limit: 10 }))
      .filter((s) => !isResearching(s.status))
      .slice(0, 5);
    return statusList(active, recent, teamDomain);
  }

  private async answer(
    row: SessionRow,
    text: string | null,
    by: string,
    how: 'answered' | 'skipped',
  ): Promise<void> {
    const view = await this.deps.service.view(row.id);
    if (!view) return;
    const questions = view.clarification?.questions ?? '';
    const edit = (await threadOf(this.deps.sessions, row)).edit(
      { kind: 'clarify' },
      clarifyMessage(questions, row.id, { kind: how, by }),
    );
    if (await this.deps.service.answer(row.id, text, [edit])) this.deps.deliver();
  }

  /** `/research usage`: tokens and cost today and this month, the requester's and the workspace's. */
  async usage(userId: string, teamId: string): Promise<string> {
    if (!this.deps.spend) return 'Usage is not recorded here.';
    return usageSummary(this.deps.spend.store, this.deps.spend.caps, { requester: userId, teamId });
  }
}
