import pLimit from 'p-limit';
import type { Logger } from '../../ports/logger.js';
import type { RefusalGroup } from '../../sessions/records/schedule-refusals.js';
import type { ScheduleRow } from '../../sessions/records/schedule-row.js';
import type { ScheduleStore } from '../../sessions/records/schedule-store.js';
import type { SessionStore } from '../../sessions/records/session-store.js';
import type { RunOpening } from '../../sessions/schedules/scheduled-runs.js';
import type { SlackApi } from '../api/slack-api.js';
import { SlackCallError } from '../api/slack-errors.js';
import { cannotPostIn, personOf } from '../api/slack-people.js';
import type { ChannelMembers } from '../channel-members.js';
import { rootMessage } from '../render/messages.js';
import { pausedMessage, refusalsMessage } from '../render/schedule-text.js';
import { SessionThread } from '../thread/session-thread.js';

/** Why a schedule's channel no longer takes its runs (its owner is told, with the channel named). */
const GONE = {
  not_member:
    'I am no longer a member of its channel; invite me back (/invite @Deep Research), then resume it',
  archived: 'its channel was archived; schedule the question again in another channel',
  not_found: 'I can no longer see its channel; invite me back, then resume it',
} as const;
/** Why a schedule pauses when its owner may no longer post where it posts. */
export const OWNER_LEFT =
  'its owner is no longer a member of its channel; they can resume it once they are back, or schedule the question where they are';

/** Pause notices and refusal messages sent per scheduler pass: the rest go at the next. */
const NOTICES_PER_PASS = 20;
/** Refusal messages posted at once (each waits on Slack's rate limits, not on the others). */
const NOTICES_AT_ONCE = 4;
/**
 * How long what a slot learned from Slack (the owner's account, the channel,
 * the owner's DM with the app) is trusted for the next slots of the same
 * pass: many schedules of one owner in one channel cost one lookup each, not
 * one per slot (who is in a channel is ChannelMembers' to remember).
 */
const LOOKUP_MS = 30_000;

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
  /** Records that a run was refused (a cap, the per-person limit), to be said by `notifyRefusals`. */
  refused(schedule: ScheduleRow, slot: Date, sentence: string): Promise<void>;
  /** Tells each owner, once, by DM, that their schedule paused itself and why. */
  notifyPauses(): Promise<void>;
  /**
   * Says the refused runs in their channels: one message per owner, place and
   * slot, naming the owner without a mention that pings (once: looked for
   * before a retry).
   */
  notifyRefusals(): Promise<void>;
}

export function scheduledSlack(deps: {
  api: SlackApi;
  schedules: ScheduleStore;
  sessions: Pick<SessionStore, 'get' | 'threadSessions'>;
  members: Pick<ChannelMembers, 'has'>;
  log: Logger;
  now?: () => number;
}): ScheduledSlack {
  const { api, schedules, sessions, members, log } = deps;
  const lookup = remembered(LOOKUP_MS, deps.now ?? Date.now);
  /**
   * Whether the owner may still post where the schedule posts: a member of
   * its channel (ChannelMembers keeps the list a minute), or its DM with the app.
   */
  const ownerIsIn = async (owner: string, channelId: string) =>
    channelId.startsWith('D')
      ? (await lookup(`dm:${owner}`, () => api.openDm(owner))) === channelId
      : members.has(channelId, owner);
  /**
   * Sends one owner's notice; Slack unreachable or busy: the next pass tries
   * again (looking first for what may have landed); Slack refusing it for good
   * (the channel or the account gone): `gaveUp`, nothing more to try.
   */
  const deliver = async (
    what: string,
    fields: object,
    send: () => Promise<void>,
    gaveUp: () => Promise<void>,
  ) => {
    try {
      await send();
    } catch (err) {
      if (!(err instanceof SlackCallError)) {
        log.warn({ err, ...fields }, `could not ${what}; trying again`);
        return;
      }
      log.warn({ code: err.code, ...fields }, `Slack refused to ${what}`);
      await gaveUp();
    }
  };
  return {
    async opening(s, sessionId) {
      const owner = await lookup(`person:${s.owner}`, () => personOf(api, s.owner));
      if (owner.gone) return { pause: 'its owner is no longer in the workspace' };
      if (!s.channelId) return { pause: 'it has no channel to post in' };
      const channelId = s.channelId;
      const cannot = await lookup(`channel:${channelId}`, () => cannotPostIn(api, channelId));
      if (cannot) return { pause: GONE[cannot] };
      // The research speaks in the channel on its owner's behalf: only while they are in it.
      if (!(await ownerIsIn(s.owner, channelId))) return { pause: OWNER_LEFT };
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
      await schedules.refusals.add(
        s,
        slot,
        { channelId: s.channelId, ...(threadTs && { threadTs }) },
        sentence,
      );
    },

    async notifyRefusals() {
      const limit = pLimit(NOTICES_AT_ONCE);
      const groups = await schedules.refusals.due(NOTICES_PER_PASS);
      await Promise.all(
        groups.map((group) =>
          limit(() =>
            deliver(
              'say that scheduled runs did not start',
              { owner: group.owner },
              () => sayRefusals(api, schedules, group),
              // The schedules pause on their own when their channel is gone.
              () => schedules.refusals.said(group, 'said'),
            ),
          ),
        ),
      );
    },

    async notifyPauses() {
      for (const s of await schedules.pauseNotices('slack', NOTICES_PER_PASS))
        await deliver(
          'tell the owner a schedule paused',
          { scheduleId: s.id },
          () => notify(api, schedules, s),
          () => schedules.notice(s.id, 'sent'),
        );
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

/** One message for an owner's refused runs in one place at one slot (looked for first if it may have landed). */
async function sayRefusals(api: SlackApi, schedules: ScheduleStore, group: RefusalGroup): Promise<void> {
  const threadTs = group.threadTs || undefined;
  // Named by what stays the same between a dropped post and its retry: the owner and the slot.
  const tag = { session_id: `schedules:${group.owner}`, key: `refused:${group.slot.toISOString()}` };
  const oldest = (group.slot.getTime() / 1000 - 60).toFixed(6);
  if (group.sending && (await api.findOwn(group.channelId, threadTs, oldest, { tag }))) {
    await schedules.refusals.said(group, 'said');
    return;
  }
  const name = await api.userName(group.owner);
  await schedules.refusals.said(group, 'sending');
  await api.post(group.channelId, refusalsMessage(group, name), threadTs, tag);
  await schedules.refusals.said(group, 'said');
}

/**
 * A look-up remembered for `ms` (a failed one is not: the next caller asks
 * again), so one pass over many schedules asks Slack once per owner and channel.
 */
function remembered(ms: number, now: () => number) {
  const known = new Map<string, { at: number; value: Promise<unknown> }>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = known.get(key);
    if (hit && now() - hit.at < ms) return hit.value as Promise<T>;
    for (const [k, v] of known) if (now() - v.at >= ms) known.delete(k);
    const value = load();
    value.catch(() => known.delete(key));
    known.set(key, { at: now(), value });
    return value;
  };
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
