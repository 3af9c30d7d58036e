import type { Logger } from '../../ports/logger.js';
import type { ScheduleRow } from '../../sessions/records/schedule-row.js';
import type { ScheduleStore } from '../../sessions/records/schedule-store.js';
import type { SessionStore } from '../../sessions/records/session-store.js';
import type { RunOpening } from '../../sessions/schedules/scheduled-runs.js';
import type { SlackApi } from '../api/slack-api.js';
import { SlackCallError } from '../api/slack-errors.js';
import { cannotPostIn, personOf } from '../api/slack-people.js';
import { rootMessage } from '../render/messages.js';
import { pausedMessage, refusedMessage } from '../render/schedule-text.js';
import { SessionThread } from '../thread/session-thread.js';

/** Why a schedule's channel no longer takes its runs (its owner is told, with the channel named). */
const GONE = {
  not_member:
    'I am no longer a member of its channel; invite me back (/invite @Deep Research), then resume it',
  archived: 'its channel was archived; schedule the question again in another channel',
  not_found: 'I can no longer see its channel; invite me back, then resume it',
} as const;

/** Pause notices sent per scheduler pass: the rest go at the next. */
const NOTICES_PER_PASS = 20;

/** Slack's side of scheduled research in a process that delivers to Slack (run by the scheduler's pass). */
export interface ScheduledSlack {
  /**
   * How a Slack schedule's run opens: a root in its channel, recorded with
   * the session and posted through the outbox (looked for before a retry,
   * so a crash never posts it twice; the run waits for it), or, for a
   * digest, the latest run's thread. Or why the schedule pauses instead:
   * its owner left, or the app can no longer post in its channel.
   */
  opening(schedule: ScheduleRow, sessionId: string): Promise<RunOpening>;
  /** Says in the schedule's channel that a run was refused (a cap, the per-person limit), once per slot. */
  refused(schedule: ScheduleRow, slot: Date, sentence: string): Promise<void>;
  /** Tells each owner, once, by DM, that their schedule paused itself and why. */
  notifyPauses(): Promise<void>;
}

export function scheduledSlack(deps: {
  api: SlackApi;
  schedules: ScheduleStore;
  sessions: Pick<SessionStore, 'get' | 'threadSessions'>;
  log: Logger;
}): ScheduledSlack {
  const { api, schedules, sessions, log } = deps;
  return {
    async opening(s, sessionId) {
      if ((await personOf(api, s.owner)).gone) return { pause: 'its owner is no longer in the workspace' };
      if (!s.channelId) return { pause: 'it has no channel to post in' };
      const cannot = await cannotPostIn(api, s.channelId);
      if (cannot) return { pause: GONE[cannot] };
      const digest = s.delivery === 'digest' ? await digestThread(sessions, s) : undefined;
      if (digest) return { opening: { opener: { role: 'root', ts: digest.ts } }, thread: digest };
      const thread = new SessionThread({ sessionId, channelId: s.channelId, threadTs: '' });
      const root = thread.post({ kind: 'root' }, rootMessage(s.owner, s.question, undefined, true));
      return { opening: { intents: [root] } };
    },

    async refused(s, slot, sentence) {
      if (!s.channelId) return;
      // In a digest's thread, where its runs are read; else in the channel, where a run's thread would be.
      const threadTs = s.delivery === 'digest' ? (await digestThread(sessions, s))?.ts : undefined;
      const tag = { session_id: s.id, key: `refused:${slot.toISOString()}` };
      const oldest = (slot.getTime() / 1000 - 60).toFixed(6);
      if (await api.findOwn(s.channelId, threadTs, oldest, { tag })) return;
      await api.post(s.channelId, refusedMessage(s, sentence), threadTs, tag);
    },

    async notifyPauses() {
      for (const s of await schedules.pauseNotices('slack', NOTICES_PER_PASS)) {
        try {
          await notify(api, schedules, s);
        } catch (err) {
          if (!(err instanceof SlackCallError)) {
            // Slack unreachable or busy: the next pass tries again (looking first for a DM that landed).
            log.warn({ err, scheduleId: s.id }, 'could not tell the owner a schedule paused; trying again');
            continue;
          }
          // Slack will not take it (the owner's account gone, DMs closed): nothing more to try.
          log.warn(
            { code: err.code, scheduleId: s.id },
            'Slack refused the DM telling the owner a schedule paused',
          );
          await schedules.notice(s.id, 'sent');
        }
      }
    },
  };
}

/** A digest's thread: the latest run's, and the turn after the thread's latest (none before the first run). */
async function digestThread(
  sessions: Pick<SessionStore, 'get' | 'threadSessions'>,
  s: ScheduleRow,
): Promise<{ ts: string; turn: number } | undefined> {
  const last = s.lastSessionId ? await sessions.get(s.lastSessionId) : null;
  if (!last?.threadTs || !last.teamId || last.channelId !== s.channelId) return undefined;
  const [latest] = await sessions.threadSessions(last.teamId, s.channelId, last.threadTs);
  return { ts: last.threadTs, turn: (latest?.turn ?? last.turn) + 1 };
}

async function notify(api: SlackApi, schedules: ScheduleStore, s: ScheduleRow): Promise<void> {
  const channel = await api.openDm(s.owner);
  const tag = { session_id: s.id, key: 'paused' };
  // A DM about an earlier pause is older than this one (a minute allows for Slack's and the database's clocks).
  const oldest = ((s.pausedAt ?? new Date()).getTime() / 1000 - 60).toFixed(6);
  if (s.pauseNotice === 'sending' && (await api.findOwn(channel, undefined, oldest, { tag }))) {
    await schedules.notice(s.id, 'sent');
    return;
  }
  await schedules.notice(s.id, 'sending');
  await api.post(channel, pausedMessage(s), undefined, tag);
  await schedules.notice(s.id, 'sent');
}
