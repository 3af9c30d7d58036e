import type { PolicyGate } from '../policies/policy-gate.js';
import { questionRefusal } from '../question-refusal.js';
import type { AuditAction, AuditEvent, RecordAudit } from '../records/audit-store.js';
import type { OverLimit, ScheduleLimits } from '../records/schedule-limits.js';
import type { ScheduleOptions, ScheduleRow } from '../records/schedule-row.js';
import type { ScheduleStore } from '../records/schedule-store.js';
import { type Interval, knownTimeZone, moreOftenThan, nextSlot, readCadence } from './cadence.js';

export interface NewScheduleRequest {
  origin: 'slack' | 'cli';
  owner: string;
  teamId?: string;
  channelId?: string;
  cadence: string;
  question: string;
  timeZone: string;
}

export type ScheduleChange = 'pause' | 'resume' | 'remove';

export type Changed = { done: true; schedule: ScheduleRow } | { done: false; sentence: string };

/**
 * Who changes a schedule: its owner, or someone `mayManage` says may
 * (Slack's workspace admins); `lists` names where their schedules are listed.
 */
export interface ScheduleActor {
  id: string;
  mayManage?: () => Promise<boolean>;
  /**
   * Whether they may pause a schedule that is not theirs (Slack: a member of
   * the channel it posts in); the owner is told who paused it.
   */
  mayPause?: (schedule: ScheduleRow) => Promise<boolean>;
  /** How they are named to the owner of a schedule they paused (without a mention that pings). */
  name?: () => Promise<string>;
  lists: string;
}

/**
 * The schedules' use cases, one definition for every surface (the terminal,
 * Slack): add one (its cadence, question and time zone checked), list a
 * person's, change the cadence of, pause, resume (from its next slot after
 * now) and remove one of their own. Runs are the scheduler's (scheduled-runs.ts).
 */
export class ScheduleService {
  constructor(
    private readonly deps: {
      schedules: ScheduleStore;
      newId: () => string;
      now: () => Date;
      maxQuestionChars: number;
      /** SCHEDULE_MIN_INTERVAL: no schedule runs more often. */
      minInterval: Interval;
      /** SCHEDULES_PER_PERSON, SCHEDULES_PER_CHANNEL: active schedules at most. */
      limits: ScheduleLimits;
      /** The audit trail: every schedule created, changed, paused, resumed or removed, and by whom. */
      audit?: RecordAudit;
      /** Channel policies: whether schedules may post in a channel, and who may start research there. */
      policies?: Pick<PolicyGate, 'decide'>;
    },
  ) {}

  async add(request: NewScheduleRequest): Promise<Changed> {
    const question = request.question.trim();
    const refused = questionRefusal(question, this.deps.maxQuestionChars);
    if (refused) return { done: false, sentence: refused };
    const when = this.when(request.cadence, request.timeZone);
    if ('sentence' in when) return { done: false, sentence: when.sentence };
    const where = { ...request, requester: request.owner, scheduled: true };
    const policy = await this.deps.policies?.decide(where);
    if (policy?.refusal) return { done: false, sentence: policy.refusal };
    const id = this.deps.newId();
    const over = await this.deps.schedules.add(
      {
        id,
        origin: request.origin,
        owner: request.owner,
        ...(request.teamId ? { teamId: request.teamId } : {}),
        ...(request.channelId ? { channelId: request.channelId } : {}),
        question,
        ...when,
      },
      this.deps.limits,
    );
    if (over) return { done: false, sentence: limitSentence(over, 'add') };
    return this.audited(request.owner, 'schedule.created', (await this.deps.schedules.get(id))!);
  }

  /** A schedule `actor` may change at a new cadence (in its time zone, or `timeZone`), from its next slot. */
  async reschedule(
    idOrPrefix: string,
    actor: ScheduleActor,
    cadence: string,
    timeZone?: string,
  ): Promise<Changed> {
    const found = await this.owned(idOrPrefix, actor);
    if ('sentence' in found) return { done: false, sentence: found.sentence };
    const when = this.when(cadence, timeZone ?? found.timeZone);
    if ('sentence' in when) return { done: false, sentence: when.sentence };
    await this.deps.schedules.reschedule(found.id, when);
    return this.audited(actor.id, 'schedule.changed', (await this.deps.schedules.get(found.id)) ?? found, {
      cadence: when.cadence,
    });
  }

  /** Why a cadence is refused (unreadable, more often than SCHEDULE_MIN_INTERVAL), whatever the time zone. */
  cadenceRefusal(text: string): string | undefined {
    const cadence = this.cadence(text);
    return 'sentence' in cadence ? cadence.sentence : undefined;
  }

  private cadence(text: string): { sentence: string } | { label: string; cron: string } {
    const cadence = readCadence(text);
    if ('refusal' in cadence) return { sentence: cadence.refusal };
    const min = this.deps.minInterval;
    if (moreOftenThan(cadence.every, min))
      return {
        sentence: `Schedules here run at most once a ${min === 'weekly' ? 'week' : 'month'} (SCHEDULE_MIN_INTERVAL=${min}): say for example "${min === 'weekly' ? 'weekly on monday at 9:00' : 'monthly on the 1st at 9:00'}".`,
      };
    return cadence;
  }

  /** A cadence and time zone checked, with the first slot after now. */
  private when(
    text: string,
    timeZone: string,
  ): { cadence: string; cron: string; timeZone: string; nextRunAt: Date } | { sentence: string } {
    if (!knownTimeZone(timeZone))
      return {
        sentence: `"${timeZone}" is not a time zone I know: give its IANA name, such as Europe/Berlin.`,
      };
    const cadence = this.cadence(text);
    if ('sentence' in cadence) return cadence;
    const nextRunAt = nextSlot(cadence.cron, timeZone, this.deps.now());
    return { cadence: cadence.label, cron: cadence.cron, timeZone, nextRunAt };
  }

  /** A person's schedules and those that post in `channelId`, oldest first. */
  list(owner: string, channelId?: string): Promise<ScheduleRow[]> {
    return this.deps.schedules.list(owner, channelId);
  }

  /** Pauses, resumes or removes a schedule `actor` may change, named by its id or the id's start. */
  async change(idOrPrefix: string, actor: ScheduleActor, change: ScheduleChange): Promise<Changed> {
    const schedule = await this.owned(idOrPrefix, actor, change === 'pause');
    if ('sentence' in schedule) return { done: false, sentence: schedule.sentence };
    const { schedules } = this.deps;
    if (change === 'remove') await schedules.remove(schedule.id);
    else if (change === 'pause')
      await schedules.setStatus(
        schedule.id,
        'paused',
        // Paused by someone else (a member of its channel): its owner is told who, once.
        schedule.owner === actor.id ? {} : { reason: `${PAUSED_BY}${(await actor.name?.()) ?? actor.id}` },
      );
    else {
      const next = nextSlot(schedule.cron, schedule.timeZone, this.deps.now());
      const over = await schedules.resume(schedule, next, this.deps.limits);
      if (over) return { done: false, sentence: limitSentence(over, 'resume') };
    }
    const action =
      change === 'remove' ? 'schedule.removed' : change === 'pause' ? 'schedule.paused' : 'schedule.resumed';
    return this.audited(actor.id, action, (await schedules.get(schedule.id)) ?? schedule);
  }

  /** Whether a schedule's runs are reviewed, and where they go (new threads or one digest thread). */
  async configure(idOrPrefix: string, actor: ScheduleActor, options: ScheduleOptions): Promise<Changed> {
    const schedule = await this.owned(idOrPrefix, actor);
    if ('sentence' in schedule) return { done: false, sentence: schedule.sentence };
    await this.deps.schedules.configure(schedule.id, options);
    return this.audited(
      actor.id,
      'schedule.changed',
      (await this.deps.schedules.get(schedule.id)) ?? schedule,
      { ...options },
    );
  }

  /** A change done, in the audit trail with the schedule's place. */
  private async audited(
    actor: string,
    action: AuditAction,
    schedule: ScheduleRow,
    detail: AuditEvent['detail'] = {},
  ): Promise<Changed> {
    await this.deps.audit?.({
      actor,
      action,
      teamId: schedule.teamId,
      channelId: schedule.channelId,
      scheduleId: schedule.id,
      detail: { owner: schedule.owner, cadence: schedule.cadence, ...detail },
    });
    return { done: true, schedule };
  }

  /** The schedule named, if `actor` may change it (or, `pausing`, pause it). */
  private async owned(
    idOrPrefix: string,
    actor: ScheduleActor,
    pausing = false,
  ): Promise<ScheduleRow | { sentence: string }> {
    const found = await this.deps.schedules.findByPrefix(idOrPrefix);
    if (found.length !== 1)
      return {
        sentence: found.length
          ? `"${idOrPrefix}" names more than one schedule: give more of its id.`
          : `No schedule ${idOrPrefix || 'was named'} (give at least the first 8 characters of its id): ${actor.lists} shows yours.`,
      };
    const schedule = found[0]!;
    if (schedule.owner === actor.id || (await actor.mayManage?.())) return schedule;
    if (pausing && (await actor.mayPause?.(schedule))) return schedule;
    return { sentence: `Schedule ${schedule.id.slice(0, 8)} is ${schedule.owner}'s, not yours.` };
  }
}

/** How the reason of a pause by someone other than its owner starts (the owner's DM reads it so). */
export const PAUSED_BY = 'paused by ';

function limitSentence(over: OverLimit, doing: 'add' | 'resume'): string {
  const what =
    over.over === 'person'
      ? `You already have ${over.limit} active schedules, the most one person may have (SCHEDULES_PER_PERSON)`
      : `This channel already has ${over.limit} active schedules, the most one channel may have (SCHEDULES_PER_CHANNEL)`;
  return `${what}: pause or remove one first${doing === 'resume' ? ', then resume this one' : ''}.`;
}
