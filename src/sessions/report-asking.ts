import type { Logger } from '../ports/logger.js';
import type { ReportAnswer, ReportQuestions } from '../ports/report-questions.js';
import type { SpendGate } from './admission.js';
import { appliedPolicy } from './policies/channel-policy.js';
import type { PolicyGate } from './policies/policy-gate.js';
import type { AnswerStore } from './records/answer-store.js';
import type { RecordAudit } from './records/audit-store.js';
import type { OutboxIntent } from './records/outbox-intent.js';
import type { SessionRow, SessionStore } from './records/session-store.js';

type Answered = Extract<ReportAnswer, { kind: 'answered' }>;

/** What asking a report came to: the answer (stored), "not in the sources" (stored), or why it was not asked. */
export type Asked =
  | { kind: 'answered'; id: number; answer: Answered }
  | { kind: 'unanswered'; id: number }
  | { kind: 'refused'; sentence: string };

export interface ReportAskingDeps {
  sessions: SessionStore;
  answers: AnswerStore;
  questions: ReportQuestions;
  /** The spending gate every answer passes: held before the call, released with its cost recorded. */
  gate: Pick<SpendGate, 'hold' | 'release' | 'settle'>;
  log: Logger;
  /** The audit trail: every ask, who, where and what it cost. */
  audit?: RecordAudit;
  /** Channel policies: who may ask a channel's reports, within its budget. */
  policies?: Pick<PolicyGate, 'decide'>;
}

/**
 * Asking a finished report, for every surface: answered from the report and
 * the sources its research kept (those of the research it continues too),
 * stored with the session (who asked, what, the answer, what it cost) together
 * with the writes that show it, within the spending caps: the most an answer
 * may cost is held before the call (under admission's lock, so asks at once
 * share what is left), and what it did cost is recorded whatever came of it.
 */
export class ReportAsking {
  constructor(private readonly deps: ReportAskingDeps) {}

  /**
   * A question that is clearly a new research rather than one about the
   * report: it asks for research ("research …", "look into …"), or it is long
   * or has several parts (over 300 characters, or three questions or more).
   */
  static isNewResearch(question: string): boolean {
    const text = question.replace(/<@[A-Z0-9]+>/g, '').trim();
    if (/^(please\s+)?(research|investigate|look into|dig into|find out about|deep[- ]?dive)\b/i.test(text))
      return true;
    return text.length > 300 || (text.match(/\?/g) ?? []).length >= 3;
  }

  /** Whether a session has a report to ask. */
  static canAsk(row: SessionRow): boolean {
    return row.report !== null && ['done', 'delivering', 'cancelled'].includes(row.status);
  }

  async ask(
    row: SessionRow,
    question: string,
    asker: { userId: string; teamId: string | null },
    /** The writes that show the outcome (built from the stored answer's id). */
    show: (asked: Exclude<Asked, { kind: 'refused' }>) => OutboxIntent[] = () => [],
    signal?: AbortSignal,
  ): Promise<Asked> {
    const report = row.report;
    if (row.deleted) return { kind: 'refused', sentence: 'That report was deleted.' };
    if (!report) return { kind: 'refused', sentence: 'That research has no report to ask yet.' };
    // Asking a report is paid research in its channel: that channel's policy decides who may, within its budget.
    const where = { teamId: row.teamId, channelId: row.channelId, requester: asker.userId, asking: true };
    const policy = await this.deps.policies?.decide(where);
    if (policy?.refusal) return { kind: 'refused', sentence: policy.refusal };
    const applied = policy?.stored && appliedPolicy(policy.stored);
    const hold = await this.deps.gate.hold(
      { requester: asker.userId, teamId: asker.teamId, channelId: row.channelId },
      await this.deps.questions.maxCostUsd(),
      'a question to a report',
      applied?.dailyBudgetUsd !== undefined && row.channelId
        ? { channelId: row.channelId, dailyUsd: applied.dailyBudgetUsd, raisedBy: applied.raisedBy }
        : undefined,
    );
    if ('refused' in hold) return { kind: 'refused', sentence: hold.refused };
    try {
      return await this.answerHeld({ ...row, report }, question, asker, show, signal);
    } finally {
      await this.deps.gate
        .release(hold.held)
        .catch((err) => this.deps.log.warn({ err, sessionId: row.id }, 'could not release a spending hold'));
    }
  }

  private async answerHeld(
    row: SessionRow & { report: NonNullable<SessionRow['report']> },
    question: string,
    asker: { userId: string; teamId: string | null },
    show: (asked: Exclude<Asked, { kind: 'refused' }>) => OutboxIntent[],
    signal?: AbortSignal,
  ): Promise<Asked> {
    const answer = await this.deps.questions.answer(
      { question, report: row.report, sessionIds: await this.lineage(row) },
      signal,
    );
    let asked: Exclude<Asked, { kind: 'refused' }> | undefined;
    const id = await this.deps.answers.save(
      {
        sessionId: row.id,
        asker: asker.userId,
        teamId: asker.teamId,
        question,
        answer: answer.kind === 'answered' ? answer.markdown : null,
        sources: answer.kind === 'answered' ? answer.sources : [],
        usage: answer.usage,
        costUsd: answer.costUsd,
      },
      (stored) => {
        // An unusable answer is stored for what it cost, and said as it is; nothing is shown in the thread.
        if (answer.kind === 'unusable') return [];
        asked =
          answer.kind === 'answered'
            ? { kind: 'answered', id: stored, answer }
            : { kind: 'unanswered', id: stored };
        return show(asked);
      },
    );
    this.deps.log.info({ sessionId: row.id, answer: id, outcome: answer.kind }, 'report asked');
    await this.deps.audit?.({
      actor: asker.userId,
      action: 'report.asked',
      teamId: asker.teamId,
      channelId: row.channelId,
      sessionId: row.id,
      costUsd: answer.costUsd,
      detail: { outcome: answer.kind, answer: id },
    });
    return answer.kind === 'unusable' ? { kind: 'refused', sentence: answer.sentence } : asked!;
  }

  /**
   * Whether `asked` asks what an earlier research asked (`earlier`), so its
   * report may be offered instead: the same words need no call; otherwise one
   * short model call within the caps (held before, its cost recorded after).
   * False when the caps leave nothing for it, the model fails or its answer
   * cannot be used: nothing is offered and the question is researched.
   */
  async sameQuestion(
    earlier: string,
    asked: string,
    asker: { userId: string; teamId: string | null },
  ): Promise<boolean> {
    const plain = (q: string) =>
      q
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    if (plain(earlier) === plain(asked)) return true;
    const who = { requester: asker.userId, teamId: asker.teamId };
    const hold = await this.deps.gate.hold(
      who,
      await this.deps.questions.maxCompareCostUsd(),
      'checking an earlier report',
    );
    if ('refused' in hold) return false;
    const paid = { purpose: 'same_question', costUsd: 0, tokens: 0 };
    try {
      const compared = await this.deps.questions.compare(earlier, asked);
      paid.costUsd = compared.costUsd ?? 0;
      paid.tokens = compared.usage.models.reduce((n, m) => n + m.inputTokens + m.outputTokens, 0);
      return compared.same === true;
    } catch (err) {
      this.deps.log.warn({ err }, 'could not check an earlier report against the question; researching it');
      return false;
    } finally {
      await this.deps.gate
        .settle(hold.held, who, paid)
        .catch((err) => this.deps.log.warn({ err }, 'could not record what checking an earlier report cost'));
    }
  }

  /** The session and the earlier research in its thread (a [Research more] version reads its predecessors' sources). */
  private async lineage(row: SessionRow): Promise<string[]> {
    if (!row.teamId || !row.channelId || !row.threadTs) return [row.id];
    const thread = await this.deps.sessions.threadSessions(row.teamId, row.channelId, row.threadTs);
    return [row.id, ...thread.map((s) => s.id).filter((id) => id !== row.id)];
  }
}
