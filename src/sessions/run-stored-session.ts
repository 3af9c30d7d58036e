import { describeError } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import type { ResearchOutcome } from '../ports/research.js';
import type { SteeringStore } from '../store/steering-store.js';
import { type GivenFileDeps, readGivenFiles } from './read-given-files.js';
import type { SessionLifecycle } from './records/session-lifecycle.js';
import type { SessionStatus } from './records/session-status.js';
import type { SessionRow, SessionStore } from './records/session-store.js';
import type { SpendStore } from './records/spend-store.js';
import type { ResearchBackends } from './research-backends.js';
import type { AddWhatChanged } from './schedules/what-changed.js';
import type { SessionMoments } from './session-moments.js';
import { SessionRecorder } from './session-recorder.js';
import type { SessionSurface, Settled, SurfaceFactory } from './session-surface.js';
import { type SpendCaps, spendLeft } from './spend-caps.js';

export interface SessionRunDeps {
  sessions: SessionStore;
  lifecycle: SessionLifecycle;
  research: ResearchBackends;
  /** Publishes sessions of some origins somewhere (Slack threads); none for the rest. */
  surfaceFor?: SurfaceFactory;
  /** The requester's notes to running research. */
  steering?: SteeringStore;
  /** Daily spending caps, and where spending is read: a run may spend what they leave it. */
  spend?: { store: SpendStore; caps: SpendCaps };
  /** Told when a session comes to rest. */
  moments?: SessionMoments;
  /** Where the files given with a question are read in before research (once per session). */
  files?: GivenFileDeps;
  /** A scheduled run's report gets what changed since its schedule's earlier run, before it is recorded. */
  whatChanged?: AddWhatChanged;
}

export interface StoredRun {
  log: Logger;
  /** Aborted: research stops; `handedBack` says whether the session is over (a cancel) or not. */
  signal: AbortSignal;
  /** The lease this run holds: every write requires still holding it. */
  owner?: string;
  /** Writes wait out a database outage until this aborts. */
  giveUp?: AbortSignal;
  /** The run stopped for this process's own reasons (draining, the lease lost): nothing is recorded as its end. */
  handedBack: (error?: unknown) => boolean;
  /** This run's own surface (a terminal's), instead of the one `surfaceFor` gives its origin. */
  surfaceFor?: SurfaceFactory;
  /**
   * The process waits for the requester itself (a terminal's prompt): a stop
   * for answers or a plan review keeps the lease, the session never queued.
   */
  holdsRest?: boolean;
}

/** Where a run ended: handed back (the session continues elsewhere), or at rest, and how. */
export type RunEnd = { handedBack: true } | { handedBack: false; status: SessionStatus; settled: Settled };

/**
 * Runs a stored session from its checkpoint to its next resting point with
 * the backend that wrote the checkpoint: events and checkpoints recorded as
 * it goes, shown on its surface, and where it came to rest recorded with the
 * writes that show it. Returns where it rests and how, or that it was handed back.
 */
export async function runStoredSession(deps: SessionRunDeps, id: string, run: StoredRun): Promise<RunEnd> {
  const { sessions, log } = { ...deps, log: run.log };
  const recorder = new SessionRecorder(sessions, deps.lifecycle, id, log, run.owner, run.giveUp);
  let surface: SessionSurface | undefined;
  let row: SessionRow | null = null;
  try {
    const checkpoint = await sessions.loadCheckpoint(id);
    if (!checkpoint) throw new Error(`session ${id} has no checkpoint to start from`);
    const backend = deps.research.of(checkpoint);
    const dropped = await sessions.truncateEventsToCheckpoint(id);
    row = await sessions.get(id);
    let view = backend.view(checkpoint);
    // A channel's policy that does not allow thread files leaves them unread.
    if (row && deps.files && row.policy?.sources.threadFiles !== false)
      view = { ...view, files: await readGivenFiles(deps.files, row, view, log) };
    const surfaceFor = run.surfaceFor ?? deps.surfaceFor;
    if (row && surfaceFor) surface = await surfaceFor(row, view, log);
    if (row) deps.moments?.started(row);
    log.info({ backend: backend.name, phase: view.phase, dropped }, 'running session');
    let outcome: ResearchOutcome = await backend.run({
      checkpoint,
      logger: log,
      emit: (event) => {
        recorder.onEvent(event);
        surface?.onEvent(event);
      },
      saveCheckpoint: (c) => recorder.checkpoint(c),
      steering: deps.steering && ((after) => deps.steering!.since(id, after)),
      signal: run.signal,
      handedBack: () => run.handedBack(),
      spendLimitUsd: await spendLimit(deps, row, id),
      ...(row?.policy ? { sources: row.policy.sources } : {}),
    });
    if (outcome.kind === 'cancelled' && run.handedBack()) {
      // Draining or superseded: the session is not over, it continues from its checkpoint elsewhere.
      await recorder.flush();
      log.info({ reason: (run.signal.reason as Error)?.message }, 'session handed back');
      return { handedBack: true };
    }
    if (outcome.kind === 'done' && row && deps.whatChanged)
      outcome = { ...outcome, report: await deps.whatChanged(row, outcome.report, run.signal) };
    const intents = (await surface?.outcomeIntents(outcome)) ?? [];
    const status = await recorder.finish(outcome, intents, run.holdsRest);
    if (row) deps.moments?.settled({ session: row, settled: outcome, status });
    log.info({ outcome: outcome.kind, status }, 'session came to rest');
    return { handedBack: false, status, settled: outcome };
  } catch (error) {
    if (run.handedBack(error)) {
      log.warn({ err: error, reason: (run.signal.reason as Error)?.message }, 'session handed back');
      return { handedBack: true };
    }
    log.error({ err: error }, 'session failed');
    const failed = { kind: 'failed', message: describeError(error) } as const;
    await recorder
      .fail(failed.message, (await surface?.outcomeIntents(failed)) ?? [])
      .catch((err) => log.error({ err }, 'could not record the failure'));
    if (row) deps.moments?.settled({ session: row, settled: failed, status: 'failed' });
    return { handedBack: false, status: 'failed', settled: failed };
  } finally {
    await surface?.close();
  }
}

/**
 * What one run may spend: with caps (the daily ones, its channel policy's
 * per run and per day), its reservation, or less when the caps (others'
 * spending and reservations, not its own) now leave less.
 */
async function spendLimit(
  deps: SessionRunDeps,
  row: SessionRow | null,
  id: string,
): Promise<number | undefined> {
  if (!row) return undefined;
  const policy = row.policy;
  const budget =
    policy?.dailyBudgetUsd !== undefined && row.channelId
      ? { channelId: row.channelId, dailyUsd: policy.dailyBudgetUsd, raisedBy: policy.raisedBy }
      : undefined;
  const who = { requester: row.requester, teamId: row.teamId };
  const left = deps.spend
    ? (await spendLeft(deps.spend.store, deps.spend.caps, who, id, budget)).limitUsd
    : undefined;
  const limits = [left, policy?.runBudgetUsd].filter((v): v is number => v !== undefined);
  if (!limits.length) return undefined;
  return Math.min(...limits, row.reservedUsd ?? Number.POSITIVE_INFINITY);
}
