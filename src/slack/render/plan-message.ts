import { formatDuration } from '../../engine/progress.js';
import { ACTION, button, cancelActions, context, type SlackMessage, sections } from './messages.js';
import { modelMrkdwn, safeText } from './mrkdwn.js';

/** The plan; while a streamed progress message (which has no buttons) runs, it carries the Cancel button. */
export function planMessage(
  plan: string,
  cancel?: { sessionId: string },
  discussionMessages = 0,
): SlackMessage {
  const blocks = sections(`:clipboard: *Research plan*\n${modelMrkdwn(plan)}`);
  if (discussionMessages) blocks.push(discussionNote(discussionMessages));
  if (cancel) blocks.push(cancelActions(cancel.sessionId));
  return { text: 'Research plan', blocks };
}

/**
 * The plan waiting for the requester: its steps, the pre-flight estimate, when
 * it starts by itself, and [Start now] [Edit plan] [Cancel].
 */
export function planReviewMessage(
  plan: string,
  review: { sessionId: string; estimate: string; seconds: number; editedBy?: string },
  discussionMessages = 0,
): SlackMessage {
  const edited = review.editedBy ? `\n_Plan edited by <@${review.editedBy}>._` : '';
  const blocks = sections(`:clipboard: *Research plan*\n${modelMrkdwn(plan)}${edited}`);
  if (discussionMessages) blocks.push(discussionNote(discussionMessages));
  blocks.push(
    context(
      `Estimate: ${safeText(review.estimate)} · starts by itself in ${formatDuration(review.seconds * 1000)}`,
    ),
    {
      type: 'actions',
      block_id: 'plan_review_actions',
      elements: [
        button('Start now', ACTION.startNow, review.sessionId, 'primary'),
        button('Edit plan', ACTION.editPlan, review.sessionId),
        button('Cancel', ACTION.cancel, review.sessionId, 'danger'),
      ],
    },
  );
  return { text: 'Research plan: start it, edit it or cancel', blocks };
}

/** The research was given the thread it was asked in: say how much of it. */
function discussionNote(messages: number): ReturnType<typeof context> {
  return context(
    `:speech_balloon: Using the ${messages} earlier message${messages === 1 ? '' : 's'} of this thread.`,
  );
}
