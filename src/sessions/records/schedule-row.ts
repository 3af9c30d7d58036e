/** A schedule as the code reads it, and as it is added. */

export interface NewSchedule {
  id: string;
  origin: 'slack' | 'cli';
  owner: string;
  teamId?: string;
  channelId?: string;
  question: string;
  /** As the person said it, read back ("weekdays at 09:00"). */
  cadence: string;
  cron: string;
  timeZone: string;
  nextRunAt: Date;
}

export interface ScheduleRow extends NewSchedule {
  status: 'active' | 'paused';
  pausedReason: string | null;
  pendingSlot: Date | null;
  pendingSince: Date | null;
  failures: number;
  lastSessionId: string | null;
  lastResult: string | null;
  /** What its runs have cost so far (USD; priced models only). */
  costUsd: number;
  runs: number;
  createdAt: Date;
  /** The owner's message that it paused itself: to send, perhaps sent, sent (null: none owed). */
  pauseNotice: 'due' | 'sending' | 'sent' | null;
  pausedAt: Date | null;
  /** Its runs' plans wait for review (PLAN_REVIEW_SECONDS) before research starts. */
  review: boolean;
  /** Each run a new thread, or every run in one digest thread (the latest run's). */
  delivery: 'thread' | 'digest';
}

/** How a schedule's runs go out (see ScheduleRow). */
export type ScheduleOptions = Partial<Pick<ScheduleRow, 'review' | 'delivery'>>;

/** A `schedules` row (with its runs' count and cost) as the code reads it. */
export function toScheduleRow(r: Record<string, unknown>): ScheduleRow {
  return {
    id: r.id as string,
    origin: r.origin as 'slack' | 'cli',
    owner: r.owner as string,
    ...(r.team_id ? { teamId: r.team_id as string } : {}),
    ...(r.channel_id ? { channelId: r.channel_id as string } : {}),
    question: r.question as string,
    cadence: r.cadence as string,
    cron: r.cron as string,
    timeZone: r.time_zone as string,
    nextRunAt: r.next_run_at as Date,
    status: r.status as 'active' | 'paused',
    pausedReason: (r.paused_reason as string | null) ?? null,
    pendingSlot: (r.pending_slot as Date | null) ?? null,
    pendingSince: (r.pending_since as Date | null) ?? null,
    failures: r.failures as number,
    lastSessionId: (r.last_session_id as string | null) ?? null,
    lastResult: (r.last_result as string | null) ?? null,
    costUsd: Number(r.cost_usd),
    runs: Number(r.runs),
    createdAt: r.created_at as Date,
    pauseNotice: (r.pause_notice as ScheduleRow['pauseNotice']) ?? null,
    pausedAt: (r.paused_at as Date | null) ?? null,
    review: Boolean(r.review),
    delivery: (r.delivery as ScheduleRow['delivery']) ?? 'thread',
  };
}
