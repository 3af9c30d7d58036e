import { z } from 'zod';
import { type EnvOf, positiveInt, positiveNumber } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

/** How many sessions run, for whom, within which daily caps, and how long a worker's lease lasts. */
export const JOBS_FIELDS = {
  CLARIFY_TIMEOUT_HOURS: positiveNumber.default(24),
  // A new question that repeats a report from the last REUSE_DAYS is offered that report first; 0: never.
  REUSE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  MAX_CONCURRENT_SESSIONS: positiveInt.default(4),
  MAX_SESSIONS_PER_USER: positiveInt.default(2),
  // Daily spending caps in USD (UTC days); unset: no cap.
  USER_DAILY_BUDGET_USD: positiveNumber.optional(),
  WORKSPACE_DAILY_BUDGET_USD: positiveNumber.optional(),
  LEASE_SECONDS: z.coerce.number().min(5).max(600).default(30),
  // No schedule may run more often than this.
  SCHEDULE_MIN_INTERVAL: z.enum(['daily', 'weekly', 'monthly']).default('daily'),
  // Active schedules one person may own, and that may post in one channel.
  SCHEDULES_PER_PERSON: positiveInt.default(20),
  SCHEDULES_PER_CHANNEL: positiveInt.default(50),
};

export function readJobs(e: EnvOf<typeof JOBS_FIELDS>): Config['jobs'] {
  return {
    clarifyTimeoutHours: e.CLARIFY_TIMEOUT_HOURS,
    reuseDays: e.REUSE_DAYS,
    concurrentSessions: e.MAX_CONCURRENT_SESSIONS,
    sessionsPerUser: e.MAX_SESSIONS_PER_USER,
    leaseMs: e.LEASE_SECONDS * 1000,
    scheduleMinInterval: e.SCHEDULE_MIN_INTERVAL,
    scheduleLimits: { perPerson: e.SCHEDULES_PER_PERSON, perChannel: e.SCHEDULES_PER_CHANNEL },
    spendCaps: { userDailyUsd: e.USER_DAILY_BUDGET_USD, workspaceDailyUsd: e.WORKSPACE_DAILY_BUDGET_USD },
  };
}
