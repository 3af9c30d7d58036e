import type { Logger } from '../ports/logger.js';
import { checkEditedPlan, MAX_PLAN_CHARS } from '../sessions/edited-plan.js';
import type { SessionRow, SessionStore } from '../sessions/records/session-store.js';
import type { SessionService } from '../sessions/session-service.js';
import type { SlackApi } from './api/slack-api.js';
import { planReviewMessage } from './render/plan-message.js';
import { threadOf } from './thread/closing-intents.js';

export interface PlanReviewDeps {
  sessions: SessionStore;
  service: SessionService;
  api: SlackApi;
  log: Logger;
  /** Look at the outbox now. */
  deliver: () => void;
  estimatePlan: () => Promise<string>;
  /** How long a plan waits before research starts by itself (an edit restarts the wait). */
  seconds: number;
}

/** The modal that edits a plan under review (views.open / view_submission). */
export const PLAN_EDITOR = 'research_plan_edit';

/**
 * A plan waiting for the requester: [Start now], and [Edit plan] through a
 * modal whose saved text replaces the plan in the thread and in the session,
 * so it is the plan the orchestrator receives. Only the requester or a
 * workspace admin may start or edit.
 */
export class PlanReview {
  constructor(private readonly deps: PlanReviewDeps) {}

  async start(row: SessionRow, userId: string): Promise<string | undefined> {
    const refused = await this.refusal(row, userId, 'start');
    if (refused) return refused;
    // A repeated click finds it already due and changes nothing.
    await this.deps.service.startNow(row.id);
    return undefined;
  }

  /** [Edit plan]: the plan in a modal, or why not. */
  async openEditor(sessionId: string, userId: string, triggerId: string): Promise<string | undefined> {
    const row = await this.deps.sessions.get(sessionId);
    if (!row) return 'That research no longer exists.';
    if (row.status !== 'reviewing') return 'Research has already started; the plan can no longer be changed.';
    const refused = await this.refusal(row, userId, 'edit');
    if (refused) return refused;
    const plan = (await this.deps.service.view(row.id))?.plan ?? '';
    await this.deps.api.openView(triggerId, editorView(sessionId, plan));
    return undefined;
  }

  /** The modal was submitted: the new plan, or the error to show in it. */
  async saveEdit(sessionId: string, userId: string, text: string): Promise<string | undefined> {
    const checked = checkEditedPlan(text);
    if ('error' in checked) return checked.error;
    const row = await this.deps.sessions.get(sessionId);
    if (!row) return 'That research no longer exists.';
    const refused = await this.refusal(row, userId, 'edit');
    if (refused) return refused;
    const estimate = await this.deps.estimatePlan().catch(() => 'n/a');
    const view = await this.deps.service.view(sessionId);
    const given = view ? { ...view, policy: row.policy?.summary } : undefined;
    const review = { sessionId, estimate, seconds: this.deps.seconds, editedBy: userId };
    const message = planReviewMessage(checked.plan, review, given);
    const thread = await threadOf(this.deps.sessions, row);
    const edited = [thread.edit({ kind: 'plan' }, message)];
    if (!(await this.deps.service.editPlan(sessionId, userId, checked.plan, this.deps.seconds, edited)))
      return 'Research has already started; the plan can no longer be changed.';
    this.deps.deliver();
    this.deps.log.info({ sessionId, by: userId }, 'plan edited');
    return undefined;
  }

  private async refusal(
    row: SessionRow,
    userId: string,
    what: 'start' | 'edit',
  ): Promise<string | undefined> {
    if (row.requester === userId || (await this.deps.api.isAdmin(userId))) return undefined;
    return `Only <@${row.requester}> (who asked) or a workspace admin can ${what} this research${what === 'edit' ? "'s plan" : ''}.`;
  }
}

function editorView(sessionId: string, plan: string) {
  return {
    type: 'modal' as const,
    callback_id: PLAN_EDITOR,
    private_metadata: sessionId,
    title: { type: 'plain_text' as const, text: 'Edit the plan' },
    submit: { type: 'plain_text' as const, text: 'Save' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'input' as const,
        block_id: 'plan',
        label: { type: 'plain_text' as const, text: 'Research plan (at most 6 numbered steps)' },
        element: {
          type: 'plain_text_input' as const,
          action_id: 'plan',
          multiline: true,
          max_length: MAX_PLAN_CHARS,
          initial_value: plan.slice(0, MAX_PLAN_CHARS),
        },
      },
    ],
  };
}
