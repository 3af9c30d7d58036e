import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { SessionStore } from '../../sessions/records/session-store.js';
import { splitCadence } from '../../sessions/schedules/cadence.js';
import type { Changed, ScheduleChange, ScheduleService } from '../../sessions/schedules/schedule-service.js';
import type { SlackApi } from '../api/slack-api.js';
import { cannotPostIn, personOf } from '../api/slack-people.js';
import { ACTION, noticeMessage } from '../render/messages.js';
import { CANNOT_POST } from '../render/refusals.js';
import {
  REPEAT_FORM,
  repeatModal,
  scheduledReply,
  scheduleList,
  slackTime,
} from '../render/schedule-text.js';
import type { FeatureCommand, FeatureContext, SlackFeature } from '../slack-feature.js';

const CHANGES = new Set<string>(['pause', 'resume', 'remove']);
/** What the person is told when the channel cannot take a schedule's runs, by why (see cannotPostIn). */
const CANNOT = {
  archived: 'is_archived',
  not_member: 'not_in_channel',
  not_found: 'channel_not_found',
} as const;
const GONE = 'That research no longer exists.';

type Place = { teamId: string; channelId: string; userId: string };
const USAGE =
  'Say `/research schedule pause|resume|remove ID`, `/research schedule change ID mondays at 8:00`, `/research schedule review ID on|off` (plans reviewed first) or `/research schedule digest ID on|off` (every run in one thread); `/research schedules` lists the ids.';

/**
 * Scheduled research from Slack: `/research every <cadence> <question>` (in
 * the person's Slack time zone, posting in this channel), [Repeat…] under a
 * report, `/research schedules` (theirs and this channel's), and `/research
 * schedule pause|resume|remove|change|review|digest ID` for its owner or a
 * workspace admin.
 */
export function schedulesFeature(deps: {
  schedules: ScheduleService;
  api: SlackApi;
  sessions: Pick<SessionStore, 'get'>;
}): SlackFeature {
  const { schedules, api } = deps;
  const actor = (c: FeatureCommand) => ({
    id: c.userId,
    mayManage: () => api.isAdmin(c.userId),
    lists: '`/research schedules`',
  });

  /** A schedule of `question` in `where`'s channel, owned by its person, in their Slack time zone. */
  async function add(where: Place, cadence: string, question: string): Promise<Changed> {
    const cannot = await cannotPostIn(api, where.channelId);
    if (cannot) return { done: false, sentence: CANNOT_POST[CANNOT[cannot]]! };
    const { timeZone } = await personOf(api, where.userId);
    return schedules.add({
      origin: 'slack',
      owner: where.userId,
      teamId: where.teamId,
      channelId: where.channelId,
      cadence,
      question,
      // Slack always knows a person's zone; UTC only if it ever said none.
      timeZone: timeZone ?? 'UTC',
    });
  }

  async function every(c: FeatureCommand): Promise<string> {
    const split = splitCadence(c.rest);
    if ('refusal' in split)
      return `${split.refusal} (A question that starts with "every" is read as a schedule: reword it to research it once.)`;
    const added = await add(c, split.cadence, split.question);
    return added.done ? scheduledReply(added.schedule) : added.sentence;
  }

  /** [Repeat…] under a report opens a form for the cadence; its question is scheduled in the report's channel. */
  function register(app: App, { log, sorry }: FeatureContext): void {
    app.action<BlockAction>(ACTION.repeat, async ({ ack, body, action, respond }) => {
      await ack();
      const row = await deps.sessions.get((action as ButtonAction).value ?? '').catch(() => null);
      if (!row?.channelId || !row.teamId) {
        await respond({ response_type: 'ephemeral', replace_original: false, text: GONE }).catch(() => {});
        return;
      }
      await api
        .openView(body.trigger_id, repeatModal(row.id, row.question))
        .catch((err) => log.warn({ err, sessionId: row.id }, 'could not open the Repeat form'));
    });
    app.view(REPEAT_FORM, async ({ ack, body, view }) => {
      const cadence = (view.state.values.cadence?.cadence?.value ?? '').trim();
      const refuse = (sentence: string) => ack({ response_action: 'errors', errors: { cadence: sentence } });
      try {
        const row = await deps.sessions.get(view.private_metadata);
        if (!row?.channelId || !row.teamId) return void (await refuse(GONE));
        const where = { teamId: row.teamId, channelId: row.channelId, userId: body.user.id };
        const added = await add(where, cadence, row.question);
        if (!added.done) return void (await refuse(added.sentence));
        await ack();
        const reply = noticeMessage(scheduledReply(added.schedule));
        await api.ephemeral(row.channelId, body.user.id, reply, row.threadTs ?? undefined);
      } catch (err) {
        log.error({ err, user: body.user.id }, 'scheduling from [Repeat…] failed');
        await refuse(sorry).catch(() => {});
      }
    });
  }

  async function change(c: FeatureCommand): Promise<string> {
    const [sub = '', id = '', ...rest] = c.rest.split(/\s+/);
    if (sub === 'change') {
      if (!id || rest.length === 0) return USAGE;
      const changed = await schedules.reschedule(id, actor(c), rest.join(' '));
      if (!changed.done) return changed.sentence;
      const s = changed.schedule;
      return `Changed \`${s.id.slice(0, 8)}\`: ${s.cadence} (${s.timeZone}), next ${slackTime(s.nextRunAt, s.timeZone)}.`;
    }
    if (sub === 'review' || sub === 'digest') {
      const on = rest[0]?.toLowerCase();
      if (!id || rest.length !== 1 || (on !== 'on' && on !== 'off')) return USAGE;
      const options =
        sub === 'review'
          ? { review: on === 'on' }
          : ({ delivery: on === 'on' ? 'digest' : 'thread' } as const);
      const changed = await schedules.configure(id, actor(c), options);
      if (!changed.done) return changed.sentence;
      const short = `\`${changed.schedule.id.slice(0, 8)}\``;
      if (sub === 'review')
        return on === 'on'
          ? `${short}: each run's plan now waits for [Start now] in its thread (it starts by itself after PLAN_REVIEW_SECONDS).`
          : `${short}: runs start without plan review.`;
      return on === 'on'
        ? `${short}: runs now go on in one thread, the latest run's, each with what changed since the one before.`
        : `${short}: each run is a new thread.`;
    }
    if (!CHANGES.has(sub) || !id || rest.length) return USAGE;
    const changed = await schedules.change(id, actor(c), sub as ScheduleChange);
    if (!changed.done) return changed.sentence;
    const s = changed.schedule;
    const short = `\`${s.id.slice(0, 8)}\``;
    if (sub === 'pause')
      return `Paused ${short}: no run starts until \`/research schedule resume ${s.id.slice(0, 8)}\`.`;
    if (sub === 'resume') return `Resumed ${short}: next run ${slackTime(s.nextRunAt, s.timeZone)}.`;
    return `Removed ${short} (${s.cadence}); the reports it made stay.`;
  }

  return {
    name: 'schedules',
    subcommands: [
      { phrase: 'every', takesText: true, run: every },
      {
        phrase: 'schedules',
        run: async (c) => scheduleList(await schedules.list(c.userId, c.channelId), c.userId),
      },
      { phrase: 'schedule', takesText: true, run: change },
    ],
    register,
  };
}
