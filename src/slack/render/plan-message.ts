import { formatDuration } from '../../ports/progress.js';
import type { SessionView } from '../../ports/research.js';
import { ACTION, button, cancelActions, context, type SlackMessage, sections } from './messages.js';
import { modelMrkdwn, safeText } from './mrkdwn.js';

/** The plan; while a streamed progress message (which has no buttons) runs, it carries the Cancel button. */
export function planMessage(plan: string, cancel?: { sessionId: string }, given?: PlanContext): SlackMessage {
  const blocks = sections(`:clipboard: *Research plan*\n${modelMrkdwn(plan)}`);
  blocks.push(...givenNote(given));
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
  given?: PlanContext,
): SlackMessage {
  const edited = review.editedBy ? `\n_Plan edited by <@${review.editedBy}>._` : '';
  const blocks = sections(`:clipboard: *Research plan*\n${modelMrkdwn(plan)}${edited}`);
  blocks.push(...givenNote(given));
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

/**
 * What research was given besides the question (the thread's earlier
 * messages and the files shared), and the channel policy it runs under.
 */
export type PlanContext = Pick<SessionView, 'discussionMessages' | 'files'> & { policy?: string };

/** Under the plan: how much of the thread research reads, the files it reads, and those it does not, with why. */
function givenNote(given?: PlanContext): ReturnType<typeof context>[] {
  const lines: string[] = [];
  const n = given?.discussionMessages ?? 0;
  if (n) lines.push(`:speech_balloon: Using the ${n} earlier message${n === 1 ? '' : 's'} of this thread.`);
  const files = given?.files?.given ?? [];
  if (files.length) {
    const names = files.map((f) => safeText(f.name) + (f.note ? ` (${f.note})` : '')).join(', ');
    lines.push(
      `:paperclip: Reading ${files.length === 1 ? 'the file' : `the ${files.length} files`} shared here: ${names}.`,
    );
  }
  const skipped = given?.files?.skipped ?? [];
  if (skipped.length)
    lines.push(`:warning: Not read: ${skipped.map((f) => `${safeText(f.name)} (${f.reason})`).join('; ')}.`);
  if (given?.policy)
    lines.push(`:scales: This channel's research policy applies: ${safeText(given.policy)}.`);
  return lines.length ? [context(lines.join('\n'))] : [];
}
