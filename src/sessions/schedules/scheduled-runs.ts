import type { Logger } from '../../ports/logger.js';
import type { SlackOpening } from '../records/insert-session.js';
import type { ScheduleRow } from '../records/schedule-row.js';
import type { ScheduleStore } from '../records/schedule-store.js';
import { refusalLine } from '../refusal-line.js';
import type { SessionService } from '../session-service.js';
import { nextSlot, slotSessionId } from './cadence.js';

/**
 * How a Slack schedule's run opens: its thread's root, posted through the
 * outbox, or (a digest) the thread it goes on in, at its next turn; or why
 * the schedule pauses instead.
 */
export type RunOpening = { opening: SlackOpening; thread?: { ts: string; turn: number } } | { pause: string };

export interface ScheduledRunsDeps {
  schedules: ScheduleStore;
  service: Pick<SessionService, 'queue'>;
  /** Whether a session exists (a slot admitted before its process died). */
  exists: (sessionId: string) => Promise<boolean>;
  /**
   * Slack's side of a Slack schedule's run (absent in a process without
   * Slack credentials, which leaves Slack schedules to the processes with them).
   */
  slack?: {
    opening(schedule: ScheduleRow, sessionId: string): Promise<RunOpening>;
    /**
     * Records that its run for `slot` was refused, and why, to be said in its
     * channel with its owner's other refusals there (`notifyRefusals`, after the pass).
     */
    refused(schedule: ScheduleRow, slot: Date, sentence: string): Promise<void>;
  };
  /** PLAN_REVIEW_SECONDS: how long a reviewed schedule's run waits for [Start now] (0: no review anywhere). */
  planReviewSeconds: number;
  log: Logger;
}

/** Due slots read at once (each owner's earliest first); a pass reads more while it has time. */
const PER_BATCH = 50;
/** A pass reads no new batch after this long: the rest wait for the next pass. */
const PASS_MS = 5000;

/**
 * One pass of the scheduler, run by every worker: each due slot is taken by
 * exactly one process (a compare-and-set on the schedule), moved on to the
 * next slot after now (slots missed while nothing ran are one run), and its
 * run admitted as a queued session like `ask --background`'s: the caps, the
 * per-person limit and the question checked, with a session id derived from
 * the slot, so a slot admitted again after a crash meets its own session.
 * Returns the runs admitted.
 */
export async function runDueSlots(deps: ScheduledRunsDeps, now: Date): Promise<number> {
  let admitted = 0;
  const origins = deps.slack ? (['slack', 'cli'] as const) : (['cli'] as const);
  const started = performance.now();
  for (;;) {
    const batch = await deps.schedules.due(now, PER_BATCH, origins);
    for (const schedule of batch) {
      const slot = await takeSlot(deps.schedules, schedule, now);
      if (!slot) continue;
      try {
        if (await admit(deps, schedule, slot)) admitted++;
      } catch (err) {
        // The slot stays pending: it is taken again once stale (a database blip, the process stopping).
        deps.log.error({ err, scheduleId: schedule.id }, 'a scheduled run could not be admitted');
      }
    }
    // Every slot read was taken, settled or left pending: the next batch holds others.
    if (batch.length < PER_BATCH || performance.now() - started > PASS_MS) return admitted;
  }
}

async function takeSlot(schedules: ScheduleStore, s: ScheduleRow, now: Date): Promise<Date | null> {
  if (s.pendingSlot) return (await schedules.retake(s)) ? s.pendingSlot : null;
  let next: Date;
  try {
    next = nextSlot(s.cron, s.timeZone, now);
  } catch {
    // A time zone this runtime no longer knows: said once, as the pause's reason.
    await schedules.setStatus(s.id, 'paused', { reason: `its time zone ${s.timeZone} is not known here` });
    return null;
  }
  return (await schedules.take(s, next)) ? s.nextRunAt : null;
}

async function admit(deps: ScheduledRunsDeps, s: ScheduleRow, slot: Date): Promise<boolean> {
  const id = slotSessionId(s.id, slot);
  const settle = (outcome: { sessionId?: string; result: string; failed: boolean }) =>
    deps.schedules.settle(s.id, slot, outcome);
  if (await deps.exists(id)) {
    await settle({ sessionId: id, result: 'started', failed: false });
    return false;
  }
  const opened: RunOpening = s.origin === 'slack' ? await deps.slack!.opening(s, id) : { opening: {} };
  if ('pause' in opened) {
    await settle({ result: `not started: ${opened.pause}`, failed: true });
    await deps.schedules.setStatus(s.id, 'paused', { reason: opened.pause });
    deps.log.warn({ scheduleId: s.id }, `a schedule paused: ${opened.pause}`);
    return false;
  }
  const started = await deps.service.queue(
    {
      session: {
        id,
        origin: s.origin,
        requester: s.owner,
        question: s.question,
        scheduleId: s.id,
        ...(s.teamId ? { teamId: s.teamId } : {}),
        ...(s.channelId ? { channelId: s.channelId } : {}),
        ...(opened.thread && { threadTs: opened.thread.ts, turn: opened.thread.turn }),
      },
      // Nobody is there to answer questions: the run starts from the question as it was scheduled, its plan
      // reviewed only if its owner asked (in Slack, where [Start now] is).
      request: {
        skipClarification: true,
        ...(s.review && s.origin === 'slack' && deps.planReviewSeconds > 0
          ? { planReview: { seconds: deps.planReviewSeconds } }
          : {}),
      },
    },
    opened.opening,
  );
  if (started.started) {
    await settle({ sessionId: id, result: 'started', failed: false });
    return true;
  }
  const sentence = refusalLine(started.refusal);
  // Recorded before the slot is settled: a crash in between records it again, once.
  if (s.origin === 'slack') await deps.slack!.refused(s, slot, sentence);
  const result = `not started: ${sentence}`;
  const { paused } = await settle({ result, failed: true });
  deps.log.warn({ scheduleId: s.id, paused }, `a scheduled run was ${result}`);
  return false;
}
