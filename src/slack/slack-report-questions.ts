import { describeError } from '../ports/errors.js';
import type { AnswerStore } from '../sessions/records/answer-store.js';
import type { SessionRow } from '../sessions/records/session-store.js';
import { type Asked, ReportAsking } from '../sessions/report-asking.js';
import { type CanRead, mayRead } from '../sessions/report-visibility.js';
import type { SlackApi } from './api/slack-api.js';
import { previousResearch } from './follow-up-context.js';
import { answerMessage, unansweredMessage } from './render/answer-message.js';
import { noticeMessage } from './render/messages.js';
import { SessionStarter, type SessionStarterDeps } from './session-starter.js';
import type { PostedMessage } from './slack-sessions.js';
import { threadOf } from './thread/closing-intents.js';

export interface SlackReportQuestionsDeps extends SessionStarterDeps {
  api: SlackApi;
  asking: ReportAsking;
  answers: AnswerStore;
  /** Who may read a conversation: a click is checked against the report it names. */
  canRead: CanRead;
}

/**
 * Questions about a finished report in its thread: answered from the report
 * and its kept sources as a thread reply (stored with its outbox write, so a
 * crash neither loses nor repeats it); when they do not answer it, the reply
 * says so and offers [Research this], a follow-up research.
 */
export class SlackReportQuestions {
  private readonly starter: SessionStarter;

  constructor(private readonly deps: SlackReportQuestionsDeps) {
    this.starter = new SessionStarter(deps);
  }

  /** Whether a mention in a thread is a question for its latest research's report rather than a new research. */
  isFor(latest: SessionRow, question: string): boolean {
    return question !== '' && ReportAsking.canAsk(latest) && !ReportAsking.isNewResearch(question);
  }

  async ask(report: SessionRow, message: PostedMessage): Promise<void> {
    const question = message.text.replace(/<@[A-Z0-9]+>/g, '').trim();
    const { thread } = { thread: await threadOf(this.deps.sessions, report) };
    const show = (asked: Exclude<Asked, { kind: 'refused' }>) => [
      thread.post(
        { kind: 'answer', id: asked.id },
        asked.kind === 'answered' ? answerMessage(asked.answer) : unansweredMessage(report.id, asked.id),
      ),
    ];
    let asked: Asked;
    try {
      asked = await this.deps.asking.ask(
        report,
        question,
        { userId: message.userId, teamId: message.teamId },
        show,
      );
    } catch (error) {
      // Nothing was stored or posted: the asker hears why, and may ask again.
      this.deps.log.warn(
        { err: error, sessionId: report.id },
        'a question about a report could not be answered',
      );
      const sentence = `Could not answer that from the report: ${describeError(error)}`;
      await this.deps.api.ephemeral(
        message.channelId,
        message.userId,
        noticeMessage(sentence),
        message.threadTs,
      );
      return;
    }
    if (asked.kind === 'refused') {
      await this.deps.api.ephemeral(
        message.channelId,
        message.userId,
        noticeMessage(asked.sentence),
        message.threadTs,
      );
      return;
    }
    this.deps.deliver();
  }

  /**
   * [Research this]: the unanswered question becomes a follow-up research in
   * the thread, seeded with the report, for someone who clicked where the
   * report is and may read it there.
   */
  async researchThis(value: string, userId: string, channelId: string): Promise<string | undefined> {
    const [sessionId = '', answerId] = value.split(':');
    const report = await this.deps.sessions.get(sessionId);
    if (
      report &&
      (report.channelId !== channelId ||
        !(await mayRead(report, { userId, teamId: report.teamId ?? '' }, this.deps.canRead, this.deps.log)))
    )
      return 'You can research this only in the thread where it was asked, as someone who can read it.';
    const asked = report
      ? (await this.deps.answers.list(report.id)).find((a) => String(a.id) === answerId)
      : undefined;
    if (!report?.teamId || !report.channelId || !report.threadTs || !asked)
      return 'That question or its research no longer exists.';
    const once = `research_this:${report.id}:${answerId}`;
    if (!(await this.deps.sessions.claimEvent(once))) return undefined;
    const latest = (
      await this.deps.sessions.threadSessions(report.teamId, report.channelId, report.threadTs)
    )[0];
    const { mentionTs } = (await threadOf(this.deps.sessions, report)).place;
    const refused = await this.starter.create({
      teamId: report.teamId,
      channelId: report.channelId,
      userId,
      threadTs: report.threadTs,
      question: asked.question,
      turn: (latest?.turn ?? report.turn) + 1,
      previousResearch: previousResearch(report),
      // The thread opens as the report's did: our root, or the person's mention (never edited, only marked).
      role: mentionTs ? 'mention' : 'root',
      roleTs: mentionTs ?? report.threadTs,
    });
    if (refused) await this.deps.sessions.releaseEvent(once);
    return refused;
  }
}
