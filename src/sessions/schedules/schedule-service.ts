import { questionRefusal } from '../question-refusal.js';
import type { ScheduleRow, ScheduleStore } from '../records/schedule-store.js';
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
 * The schedules' use cases, one definition for every surface (the terminal,
 * Slack): add one (its cadence, question and time zone checked), list a
 * person's, pause, resume (from its next slot after now) and remove one of
 * their own. Runs are the scheduler's (scheduled-runs.ts).
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
    },
  ) {}

  async add(request: NewScheduleRequest): Promise<Changed> {
    const question = request.question.trim();
    const refused = questionRefusal(question, this.deps.maxQuestionChars);
    if (refused) return { done: false, sentence: refused };
    if (!knownTimeZone(request.timeZone))
      return {
        done: false,
        sentence: `"${request.timeZone}" is not a time zone I know: give its IANA name, such as Europe/Berlin.`,
      };
    const cadence = readCadence(request.cadence);
    if ('refusal' in cadence) return { done: false, sentence: cadence.refusal };
    const min = this.deps.minInterval;
    if (moreOftenThan(cadence.every, min))
      return {
        done: false,
        sentence: `Schedules here run at most once a ${min === 'weekly' ? 'week' : 'month'} (SCHEDULE_MIN_INTERVAL=${min}): say for example "${min === 'weekly' ? 'weekly on monday at 9:00' : 'monthly on the 1st at 9:00'}".`,
      };
    const id = this.deps.newId();
    await this.deps.schedules.add({
      id,
      origin: request.origin,
      owner: request.owner,
      ...(request.teamId ? { teamId: request.teamId } : {}),
      ...(request.channelId ? { channelId: request.channelId } : {}),
      question,
      cadence: cadence.label,
      cron: cadence.cron,
      timeZone: request.timeZone,
      review: false,
      nextRunAt: nextSlot(cadence.cron, request.timeZone, this.deps.now()),
    });
    return { done: true, schedule: (await this.deps.schedules.get(id))! };
  }

  /** A person's schedules, oldest first. */
  list(owner: string): Promise<ScheduleRow[]> {
    return this.deps.schedules.list(owner);
  }

  /** Pauses, resumes or removes one of `owner`'s schedules, named by its id or the id's start. */
  async change(idOrPrefix: string, owner: string, change: ScheduleChange): Promise<Changed> {
    const found = await this.deps.schedules.findByPrefix(idOrPrefix);
    if (found.length !== 1)
      return {
        done: false,
        sentence: found.length
          ? `"${idOrPrefix}" names more than one schedule: give more of its id.`
          : `No schedule ${idOrPrefix}: "deep-research schedule list" shows yours.`,
      };
    const schedule = found[0]!;
    if (schedule.owner !== owner)
      return {
        done: false,
        sentence: `Schedule ${schedule.id.slice(0, 8)} is ${schedule.owner}'s, not yours.`,
      };
    if (change === 'remove') await this.deps.schedules.remove(schedule.id);
    else if (change === 'pause') await this.deps.schedules.setStatus(schedule.id, 'paused');
    else
      await this.deps.schedules.setStatus(schedule.id, 'active', {
        nextRunAt: nextSlot(schedule.cron, schedule.timeZone, this.deps.now()),
      });
    return { done: true, schedule: (await this.deps.schedules.get(schedule.id)) ?? schedule };
  }
}
