import { splitCadence } from '../../sessions/schedules/cadence.js';
import type { ScheduleChange, ScheduleService } from '../../sessions/schedules/schedule-service.js';
import type { SlackApi } from '../api/slack-api.js';
import { cannotPostIn, personOf } from '../api/slack-people.js';
import { CANNOT_POST } from '../render/refusals.js';
import { scheduledReply, scheduleList, slackTime } from '../render/schedule-text.js';
import type { FeatureCommand, SlackFeature } from '../slack-feature.js';

const CHANGES = new Set<string>(['pause', 'resume', 'remove']);
const USAGE =
  'Say `/research schedule pause|resume|remove ID`, or `/research schedule change ID mondays at 8:00`; `/research schedules` lists the ids.';

/**
 * Scheduled research from Slack: `/research every <cadence> <question>` (in
 * the person's Slack time zone, posting in this channel), `/research
 * schedules` (theirs and this channel's), and `/research schedule
 * pause|resume|remove|change ID` for its owner or a workspace admin.
 */
export function schedulesFeature(deps: { schedules: ScheduleService; api: SlackApi }): SlackFeature {
  const { schedules, api } = deps;
  const actor = (c: FeatureCommand) => ({
    id: c.userId,
    mayManage: () => api.isAdmin(c.userId),
    lists: '`/research schedules`',
  });

  async function every(c: FeatureCommand): Promise<string> {
    const split = splitCadence(c.rest);
    if ('refusal' in split)
      return `${split.refusal} (A question that starts with "every" is read as a schedule: reword it to research it once.)`;
    const cannot = await cannotPostIn(api, c.channelId);
    if (cannot)
      return CANNOT_POST[
        cannot === 'archived'
          ? 'is_archived'
          : cannot === 'not_member'
            ? 'not_in_channel'
            : 'channel_not_found'
      ]!;
    const { timeZone } = await personOf(api, c.userId);
    const added = await schedules.add({
      origin: 'slack',
      owner: c.userId,
      teamId: c.teamId,
      channelId: c.channelId,
      ...split,
      // Slack always knows a person's zone; UTC only if it ever said none.
      timeZone: timeZone ?? 'UTC',
    });
    return added.done ? scheduledReply(added.schedule) : added.sentence;
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
  };
}
