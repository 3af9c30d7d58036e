import type { RefusalGroup } from '../../sessions/records/schedule-refusals.js';
import type { ScheduleRow } from '../../sessions/records/schedule-row.js';
import { PAUSE_AFTER_FAILURES } from '../../sessions/records/schedule-store.js';
import { PAUSED_BY } from '../../sessions/schedules/schedule-service.js';
import { count, noticeMessage, oneLine, type SlackMessage } from './messages.js';
import { safeSentence, safeText } from './mrkdwn.js';

/** A time as Slack shows it to each reader, in their own time zone (the fallback in the schedule's). */
export function slackTime(at: Date, timeZone: string): string {
  const fallback = at.toLocaleString('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} {time}|${fallback} ${timeZone}>`;
}

const short = (s: Pick<ScheduleRow, 'id'>) => s.id.slice(0, 8);

/** The reply to `/research every …`: what was scheduled, where, and when it first runs. */
export function scheduledReply(s: ScheduleRow): string {
  return [
    `:repeat: Scheduled \`${short(s)}\`: _${safeText(s.question)}_`,
    `${s.cadence} (${s.timeZone}), each run a new thread in <#${s.channelId}>; the first ${slackTime(s.nextRunAt, s.timeZone)}.`,
    `Runs start without plan review (\`/research schedule review ${short(s)} on\` to review each plan); a run after the first opens with what changed since the one before (\`/research schedule digest ${short(s)} on\`: every run in one thread).`,
    '`/research schedules` lists yours.',
  ].join('\n');
}

/** Where a schedule stands: paused and why, or its next run; its runs and cost; its last result; its options. */
export function scheduleStanding(s: ScheduleRow): string {
  const state =
    s.status === 'paused'
      ? `paused${s.pausedReason ? `: ${safeText(oneLine(s.pausedReason, 200))}` : ''}`
      : `next ${slackTime(s.nextRunAt, s.timeZone)}`;
  const runs = s.runs ? ` · ${count(s.runs, 'run')}, $${s.costUsd.toFixed(2)}` : '';
  const last = s.lastResult ? ` · last: ${safeText(oneLine(s.lastResult, 200))}` : '';
  const options = `${s.review ? ' · plans reviewed' : ''}${s.delivery === 'digest' ? ' · one digest thread' : ''}`;
  return `${state}${runs}${last}${options}`;
}

/** `/research schedules`: a person's schedules and the channel's, each with how to change it. */
export function scheduleList(schedules: ScheduleRow[], userId: string): string {
  if (schedules.length === 0)
    return 'No schedules here or of yours. Add one: `/research every weekdays at 9:00 <question>`.';
  const lines = schedules.map((s) => {
    const whose = s.owner === userId ? '' : ` · <@${s.owner}>'s`;
    const where = s.channelId ? ` in <#${s.channelId}>` : ' (terminal)';
    const paused = s.status === 'paused' ? ':double_vertical_bar: ' : '';
    return `• \`${short(s)}\` ${s.cadence}${where}${whose}: _${safeText(s.question)}_\n   ${paused}${scheduleStanding(s)}`;
  });
  return [
    ...lines,
    '',
    'Change one: `/research schedule pause|resume|remove ID` or `/research schedule change ID mondays at 8:00`.',
  ].join('\n');
}

/** The owner's DM when a schedule paused itself: why, and how to resume it. */
export function pausedMessage(s: ScheduleRow): SlackMessage {
  const why =
    s.failures >= PAUSE_AFTER_FAILURES
      ? `${PAUSE_AFTER_FAILURES} runs in a row did not finish; the last: ${safeSentence(s.pausedReason ?? 'unknown')}`
      : safeSentence(s.pausedReason ?? 'unknown');
  const where = s.channelId ? ` in <#${s.channelId}>` : '';
  // Paused by a member of its channel, not by itself: "was paused by …".
  const how = s.pausedReason?.startsWith(PAUSED_BY) ? 'was' : 'paused itself:';
  return noticeMessage(
    `:double_vertical_bar: Your scheduled research \`${short(s)}\` (${s.cadence}${where}) ${how} ${why}\n> ${safeText(s.question)}\nOnce that is fixed, resume it with \`/research schedule resume ${short(s)}\`.`,
  );
}

/** Questions named in one refusal message; the rest are counted. */
const REFUSALS_LISTED = 5;

/**
 * In the schedules' channel (or digest thread): an owner's runs due at one
 * slot did not start, and why (a cap, the per-person limit). The owner is
 * named as Slack shows them, not mentioned: a refusal is no reason to ping.
 */
export function refusalsMessage(group: RefusalGroup, ownerName: string): SlackMessage {
  const n = group.schedules.length;
  const what = n === 1 ? `Scheduled research \`${short(group.schedules[0]!)}\`` : `${n} scheduled researches`;
  const listed = group.schedules
    .slice(0, REFUSALS_LISTED)
    .map((s) => `> \`${short(s)}\` ${safeText(oneLine(s.question, 200))}`);
  if (n > REFUSALS_LISTED)
    listed.push(`> …and ${n - REFUSALS_LISTED} more (\`/research schedules\` lists them)`);
  return noticeMessage(
    `:repeat: ${what} of ${safeText(ownerName)} did not start: ${safeSentence(group.sentence)}\n${listed.join('\n')}`,
  );
}

/** The [Repeat…] modal's callback_id. */
export const REPEAT_FORM = 'schedule_repeat_form';

/** [Repeat…] under a report: how often to research its question again, in the channel it was asked in. */
export function repeatModal(sessionId: string, question: string) {
  return {
    type: 'modal' as const,
    callback_id: REPEAT_FORM,
    private_metadata: sessionId,
    title: { type: 'plain_text' as const, text: 'Repeat this research' },
    submit: { type: 'plain_text' as const, text: 'Schedule' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'section' as const,
        text: { type: 'mrkdwn' as const, text: `_${safeText(question.slice(0, 2_000))}_` },
      },
      {
        type: 'input' as const,
        block_id: 'cadence',
        label: { type: 'plain_text' as const, text: 'How often (in your time zone)' },
        hint: {
          type: 'plain_text' as const,
          text: 'daily, weekdays, weekly on a day or monthly on day 1–28, at a time. Each run is a new thread here, opening with what changed.',
        },
        element: {
          type: 'plain_text_input' as const,
          action_id: 'cadence',
          initial_value: 'weekly on monday at 9:00',
          max_length: 100,
        },
      },
    ],
  };
}
