import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { RepeatOfferStore } from '../../sessions/records/repeat-offer-store.js';
import type { SessionStore } from '../../sessions/records/session-store.js';
import { mayRead } from '../../sessions/report-visibility.js';
import { splitCadence } from '../../sessions/schedules/cadence.js';
import type {
  Changed,
  ScheduleActor,
  ScheduleChange,
  ScheduleService,
} from '../../sessions/schedules/schedule-service.js';
import type { SlackApi } from '../api/slack-api.js';
import { cannotPostIn, personOf } from '../api/slack-people.js';
import type { ChannelMembers } from '../channel-members.js';
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
const NOT_YOURS =
  'You can repeat a report only where it is shown to you: click [Repeat…] under it in a conversation you are in.';
/** A conversation between people, which the app cannot post in. */
const NOT_THE_APPS_DM =
  'I cannot post in a conversation between people: schedule it in a channel I am in, or in your direct message with me.';

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
  members: Pick<ChannelMembers, 'has'>;
  offers: RepeatOfferStore;
}): SlackFeature {
  const { schedules, api, members, offers } = deps;
  const actor = (c: FeatureCommand): ScheduleActor => ({
    id: c.userId,
    mayManage: () => api.isAdmin(c.userId),
    // A member of the channel a schedule posts in may pause it (not change or remove it): its owner is told.
    mayPause: async (s) =>
      Boolean(
        s.channelId &&
          !s.channelId.startsWith('D') &&
          (await members.has(s.channelId, c.userId, { fresh: true })),
      ),
    name: async () => `${await api.userName(c.userId)}, a member of its channel`,
    lists: '`/research schedules`',
  });

  /** A schedule of `question` in `where`'s channel, owned by its person, in their Slack time zone. */
  async function add(where: Place, cadence: string, question: string): Promise<Changed> {
    // A DM's id names a conversation between people unless it is the person's own with the app.
    if (where.channelId.startsWith('D') && (await api.openDm(where.userId)) !== where.channelId)
      return { done: false, sentence: NOT_THE_APPS_DM };
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

  /**
   * Whether the person may read the report in `place`, where they clicked
   * (asked of Slack now: a person removed from the channel may not). That the
   * report is shown there is the offer's to check (RepeatOfferStore.create).
   */
  async function mayRepeat(
    row: { requester: string },
    place: Place,
    log: FeatureContext['log'],
  ): Promise<boolean> {
    const report = {
      origin: 'slack' as const,
      teamId: place.teamId,
      channelId: place.channelId,
      requester: row.requester,
    };
    const canRead = (channel: string, user: string) => members.has(channel, user, { fresh: true });
    return mayRead(report, { userId: place.userId, teamId: place.teamId }, canRead, log);
  }

  /**
   * [Repeat…] under a report opens a form for the cadence; its question is
   * scheduled where the report is shown to the clicker, for them, if they may
   * read it there (checked at the click and again at the submission).
   */
  function register(app: App, { log, sorry }: FeatureContext): void {
    app.action<BlockAction>(ACTION.repeat, async ({ ack, body, action, respond }) => {
      await ack();
      const say = (text: string) =>
        respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => {});
      const sessionId = (action as ButtonAction).value ?? '';
      const place = {
        teamId: body.user.team_id ?? body.team?.id ?? '',
        channelId: body.channel?.id ?? '',
        userId: body.user.id,
      };
      try {
        const row = place.channelId ? await deps.sessions.get(sessionId) : null;
        if (!row?.report) return void (await say(GONE));
        const token = (await mayRepeat(row, place, log))
          ? await offers.create({ sessionId, ...place })
          : null;
        if (!token) return void (await say(NOT_YOURS));
        await api.openView(body.trigger_id, repeatModal(token, row.question));
      } catch (err) {
        log.warn({ err, sessionId }, 'could not open the Repeat form');
        await say(sorry);
      }
    });
    app.view(REPEAT_FORM, async ({ ack, body, view }) => {
      const cadence = (view.state.values.cadence?.cadence?.value ?? '').trim();
      const refuse = (sentence: string) => ack({ response_action: 'errors', errors: { cadence: sentence } });
      const token = view.private_metadata;
      let offer: Awaited<ReturnType<RepeatOfferStore['get']>>;
      try {
        offer = await offers.get(token, body.user.id);
        if (!offer) return void (await refuse(GONE));
        const unreadable = schedules.cadenceRefusal(cadence);
        if (unreadable) return void (await refuse(unreadable));
        await ack();
      } catch (err) {
        log.error({ err, user: body.user.id }, 'scheduling from [Repeat…] failed');
        return void (await refuse(sorry).catch(() => {}));
      }
      // What Slack must answer (who is in the channel now, the person's time zone) may take longer than a
      // form may wait (3 s): the form closes and the outcome comes as a private reply.
      const where = { teamId: offer.teamId, channelId: offer.channelId, userId: body.user.id };
      let reply: string;
      try {
        const row = await deps.sessions.get(offer.sessionId);
        const added =
          row && (await mayRepeat(row, where, log)) ? await add(where, cadence, offer.question) : null;
        if (added?.done) await offers.used(token);
        reply = !added ? NOT_YOURS : added.done ? scheduledReply(added.schedule) : added.sentence;
      } catch (err) {
        log.error({ err, user: body.user.id }, 'scheduling from [Repeat…] failed');
        reply = sorry;
      }
      await tell(where, reply, offer.threadTs ?? undefined).catch((err) =>
        log.warn({ err, user: body.user.id }, 'could not tell the person what became of their [Repeat…]'),
      );
    });
  }

  /** A private reply where the person clicked, or by DM when they can no longer be answered there. */
  async function tell(where: Place, text: string, threadTs?: string): Promise<void> {
    const message = noticeMessage(text);
    try {
      await api.ephemeral(where.channelId, where.userId, message, threadTs);
    } catch {
      await api.post(await api.openDm(where.userId), message);
    }
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
