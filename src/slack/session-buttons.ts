import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import type { FeedbackStore } from '../sessions/records/feedback-store.js';
import { PLAN_EDITOR, type PlanReview } from './plan-review.js';
import { ACTION } from './render/messages.js';
import { parseFeedback } from './render/report-messages.js';
import type { SlackFeature } from './slack-feature.js';
import type { SlackHome } from './slack-home.js';
import type { SlackReportQuestions } from './slack-report-questions.js';
import type { SlackSessions } from './slack-sessions.js';

/**
 * What people do to a session with its buttons (cancel, start now, research
 * more, research this, edit the plan, feedback) and the plan editor's
 * submission, registered on the app. Each click is acknowledged first; the
 * answer is a private reply, or the Home tab refreshed when it was clicked there.
 */
export function sessionButtons(deps: SessionButtonsDeps): SlackFeature {
  return { name: 'session buttons', register: (app, { log, sorry }) => register(app, deps, log, sorry) };
}

interface SessionButtonsDeps {
  service: SlackSessions;
  review: PlanReview;
  questions: SlackReportQuestions;
  home: SlackHome;
  /** Readers' verdicts from a report's feedback buttons. */
  feedback: Pick<FeedbackStore, 'save'>;
}

function register(
  app: App,
  { service, review, questions, home, feedback }: SessionButtonsDeps,
  log: Logger,
  sorry: string,
): void {
  const button = (
    run: (
      sessionId: string,
      userId: string,
      triggerId: string,
      channelId: string,
      at: Date,
    ) => Promise<string | undefined>,
  ) =>
    (async ({ ack, body, action, respond }) => {
      await ack();
      try {
        const value = (action as ButtonAction).value ?? '';
        // When the click was made: clicks handled out of order keep the latest.
        const at = new Date(Number((action as ButtonAction).action_ts) * 1000 || Date.now());
        const reply = await run(value, body.user.id, body.trigger_id, body.channel?.id ?? '', at);
        // A click in the Home tab ([Cancel] on a running research) has no message to answer: the view shows it.
        if (body.container?.type === 'view')
          await home.republish(body.user.id, body.user.team_id ?? body.team?.id ?? '');
        else if (reply) await respond({ response_type: 'ephemeral', replace_original: false, text: reply });
      } catch (err) {
        log.error({ err, sessionId: (action as ButtonAction).value }, 'button failed');
        await respond({ response_type: 'ephemeral', replace_original: false, text: sorry }).catch(() => {});
      }
    }) satisfies Parameters<typeof app.action<BlockAction>>[1];
  const clicks: [string, Parameters<typeof button>[0]][] = [
    [ACTION.cancel, (id, user) => service.cancel(id, user)],
    [ACTION.startNow, (id, user) => service.startNow(id, user)],
    [ACTION.researchMore, (id, user) => service.researchMore(id, user)],
    [ACTION.researchThis, (value, user, _trigger, channel) => questions.researchThis(value, user, channel)],
    [ACTION.editPlan, (id, user, trigger) => review.openEditor(id, user, trigger)],
  ];
  for (const [id, run] of clicks) app.action<BlockAction>(id, button(run));
  app.view(PLAN_EDITOR, async ({ ack, body, view }) => {
    const sessionId = view.private_metadata;
    try {
      const text = view.state.values.plan?.plan?.value ?? '';
      const error = await review.saveEdit(sessionId, body.user.id, text);
      await ack(error ? { response_action: 'errors', errors: { plan: error } } : undefined);
    } catch (err) {
      log.error({ err, sessionId }, 'saving the edited plan failed');
      await ack({ response_action: 'errors', errors: { plan: sorry } });
    }
  });
  app.action<BlockAction>(
    ACTION.feedback,
    button(async (value, user, _trigger, channel, at) => {
      const click = parseFeedback(value);
      if (!click) return undefined;
      // One verdict per person, the latest click counting; only where the report is shown.
      if (!(await feedback.save(click.sessionId, user, click.value, channel, at)))
        return 'There is no report of that research here to give feedback on.';
      return click.value === 'good'
        ? 'Thanks, noted that this report was useful.'
        : 'Thanks, noted that this report was not good enough. Say in the thread what was missing, or ask a follow-up.';
    }),
  );
}
