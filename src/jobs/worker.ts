import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError } from '../engine/errors.js';
import { runSession, type SessionOutcome } from '../engine/run-session.js';
import type { EngineBase } from '../engine/session-context.js';
import type { EngineSettings } from '../engine/settings.js';
import type { Logger } from '../ports/logger.js';
import { type SpendCaps, spendLeft } from '../sessions/spend-caps.js';
import { outageLog } from '../store/database-outage.js';
import { LeaseLostError } from '../store/lease-lost-error.js';
import type { SessionLifecycle } from '../store/session-lifecycle.js';
import { SessionRecorder } from '../store/session-recorder.js';
import type { SessionRow, SessionStore } from '../store/session-store.js';
import type { SpendStore } from '../store/spend-store.js';
import type { SteeringStore } from '../store/steering-store.js';
import { listenForCancels } from './cancel-listener.js';
import type { Claim, SessionLeases } from './session-leases.js';
import { inSession } from './session-scope.js';
import type { SessionSurface, SurfaceFactory } from './session-surface.js';

export interface WorkerDeps {
  sessions: SessionStore;
  lifecycle: SessionLifecycle;
  leases: SessionLeases;
  engine: EngineBase;
  settings: EngineSettings;
  logger: Logger;
  /** Publishes sessions of some origins somewhere (Slack threads); none for the rest. */
  surfaceFor?: SurfaceFactory;
  /** The requester's notes to running research. */
  steering?: SteeringStore;
  /** Daily spending caps, and where spending is read: a run may spend what they leave it. */
  spend?: { store: SpendStore; caps: SpendCaps };
}

export interface WorkerOptions {
  /** Sessions this process runs at once. */
  concurrency: number;
  /** How often an idle worker looks for work. */
  pollMs: number;
  /** How often a running session renews its lease and checks for a cancel request (well under the lease). */
  heartbeatMs: number;
  /** Retention and clarification expiry run this often. */
  maintenanceMs: number;
  maintenance?: () => Promise<unknown>;
  /** Listen on this database for cancel requests, so they stop a session at once rather than at its next heartbeat. */
  cancelsFrom?: string;
}

export interface Worker {
  readonly owner: string;
  running(): string[];
  /** Stops claiming, hands running sessions back at their last checkpoint, and resolves when all have let go. */
  stop(): Promise<void>;
}

/** A name for this worker's leases that says where it runs: host, process and a random part. */
export function workerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

const DRAIN = new Error('worker draining');
const CANCEL = new Error('cancelled by request');
const LOST = new Error('lease lost');

/**
 * A worker loop over the session queue. Each claimed session runs from its
 * latest checkpoint; its lease is renewed by a heartbeat, which also notices
 * a cancel request within one heartbeat. A session is never run twice at
 * once: claims skip held leases and every write checks the lease.
 */
export function startWorker(deps: WorkerDeps, options: WorkerOptions): Worker {
  const log = deps.logger.child({ worker: deps.leases.owner });
  const active = new Map<string, Running>();
  const checkNow = (id: string) => void active.get(id)?.checkNow();
  const cancels = options.cancelsFrom ? listenForCancels(options.cancelsFrom, checkNow, log) : undefined;
  const unsubscribe = deps.lifecycle.onCancelRequested(checkNow);
  let stopping = false;
  let wake: () => void = () => {};
  let lastMaintenance = 0;
  const claims = outageLog(log, 'claiming sessions');

  const loop = (async () => {
    while (!stopping) {
      if (options.maintenance && Date.now() - lastMaintenance >= options.maintenanceMs) {
        lastMaintenance = Date.now();
        await options.maintenance().catch((err) => log.error({ err }, 'maintenance failed'));
      }
      let claim: Claim | null = null;
      if (active.size < options.concurrency) {
        claim = await deps.leases.claim().then(
          (found) => {
            claims.ok();
            return found;
          },
          (err) => {
            claims.failed(err);
            return null;
          },
        );
      }
      if (claim && !stopping) {
        const running: Running = {
          controller: new AbortController(),
          done: Promise.resolve(),
          checkNow: async () => {},
        };
        running.done = inSession(claim.id, () =>
          runClaimed(deps, claim, running, options.heartbeatMs, log),
        ).finally(() => active.delete(claim.id));
        active.set(claim.id, running);
        // Let waiting I/O (Slack requests in `serve`) in between claims when many sessions arrive at once.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      if (claim) await deps.leases.release(claim.id);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    owner: deps.leases.owner,
    running: () => [...active.keys()],
    async stop() {
      stopping = true;
      wake();
      for (const { controller } of active.values()) controller.abort(DRAIN);
      await Promise.all([...active.values()].map((a) => a.done));
      await loop;
      await cancels?.stop();
      unsubscribe();
    },
  };
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  /** Renews the lease now, which also notices a cancel request. */
  checkNow: () => Promise<void>;
}

async function runClaimed(
  deps: WorkerDeps,
  claim: Claim,
  running: Running,
  heartbeatMs: number,
  workerLog: Logger,
): Promise<void> {
  const { sessions, leases } = deps;
  const { controller } = running;
  const id = claim.id;
  const log = workerLog.child({ sessionId: id });
  const beats = outageLog(log, 'renewing the lease');
  const beat = async () => {
    try {
      const hb = await leases.heartbeat(id);
      beats.ok();
      if (!hb.held) controller.abort(LOST);
      else if (hb.cancelRequested) controller.abort(CANCEL);
    } catch (err) {
      beats.failed(err);
    }
  };
  const timer = setInterval(beat, heartbeatMs);
  running.checkNow = beat;
  // Writes wait out a database outage unless the worker drains or the session is lost (a cancel still records).
  const giveUp = new AbortController();
  controller.signal.addEventListener('abort', () => {
    if (controller.signal.reason !== CANCEL) giveUp.abort(controller.signal.reason);
  });
  const recorder = new SessionRecorder(sessions, deps.lifecycle, id, log, leases.owner, giveUp.signal);
  let surface: SessionSurface | undefined;
  try {
    await beat();
    await deps.lifecycle.begin(id, leases.owner);
    const state = await sessions.loadCheckpoint(id);
    if (!state) throw new Error(`session ${id} has no checkpoint to start from`);
    const dropped = await sessions.truncateEventsToCheckpoint(id);
    const row = await sessions.get(id);
    if (row && deps.surfaceFor) surface = await deps.surfaceFor(row, state, log);
    log.info({ attempt: claim.attempts, phase: state.phase, cycle: state.cycle, dropped }, 'running session');
    const settings = await withSpendLimit(deps, row, id);
    const outcome: SessionOutcome = await runSession(
      {
        ...deps.engine,
        logger: log,
        emit: (event) => {
          recorder.onEvent(event);
          surface?.onEvent(event);
        },
        saveCheckpoint: (s) => recorder.checkpoint(s),
        steering: deps.steering && ((after) => deps.steering!.since(id, after)),
      },
      settings,
      state,
      { signal: controller.signal },
    );
    const reason = controller.signal.reason;
    if (outcome.kind === 'cancelled' && reason !== CANCEL) {
      // Draining or superseded: the session is not over, it continues from its checkpoint elsewhere.
      await recorder.flush();
      await surface?.close();
      log.info({ reason: (reason as Error)?.message }, 'session handed back');
      return;
    }
    const status = await recorder.finish(outcome, (await surface?.outcomeIntents(outcome)) ?? []);
    await surface?.close();
    log.info({ outcome: outcome.kind, status }, 'session came to rest');
  } catch (error) {
    if (error instanceof LeaseLostError || controller.signal.reason === LOST) {
      log.warn({ err: error }, 'lost the session to another worker; stopping');
      await surface?.close();
      return;
    }
    if (controller.signal.reason === DRAIN) {
      await surface?.close();
      return;
    }
    log.error({ err: error }, 'session failed');
    const failed = { kind: 'failed', message: describeError(error) } as const;
    await recorder
      .fail(failed.message, (await surface?.outcomeIntents(failed)) ?? [])
      .catch((err) => log.error({ err }, 'could not record the failure'));
    await surface?.close();
  } finally {
    clearInterval(timer);
    await leases.release(id).catch((err) => log.error({ err }, 'could not release the session'));
  }
}

/**
 * The engine settings for one run: with caps, its reservation, or less when
 * the caps (others' spending and reservations, not its own) now leave less.
 */
async function withSpendLimit(deps: WorkerDeps, row: SessionRow | null, id: string): Promise<EngineSettings> {
  if (!deps.spend || !row) return deps.settings;
  const who = { requester: row.requester, teamId: row.teamId };
  const { limitUsd } = await spendLeft(deps.spend.store, deps.spend.caps, who, id);
  if (limitUsd === undefined) return deps.settings;
  return { ...deps.settings, spendLimitUsd: Math.min(limitUsd, row.reservedUsd ?? limitUsd) };
}
