import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../ports/logger.js';
import { CANCEL_CHANNEL } from '../sessions/records/cancel-requests.js';
import { LeaseLostError } from '../sessions/records/lease-lost-error.js';
import { runStoredSession, type SessionRunDeps } from '../sessions/run-stored-session.js';
import { outageLog } from '../store/database-outage.js';
import { listenForNotices } from './notice-listener.js';
import type { Claim, SessionLeases } from './session-leases.js';
import { inSession } from './session-scope.js';

export interface WorkerDeps extends SessionRunDeps {
  leases: SessionLeases;
  logger: Logger;
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
  /** Admits the scheduled runs whose slot has come (sessions/schedules/scheduled-runs.ts), this often. */
  scheduler?: { run: () => Promise<unknown>; everyMs: number };
  /** Listen on this database for cancel requests, so they stop a session at once rather than at its next heartbeat. */
  cancelsFrom?: string;
  /** More Postgres notices to hear on the same connection (channel → handler). */
  notices?: Record<string, (payload: string) => void>;
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
  const cancels = options.cancelsFrom
    ? listenForNotices(options.cancelsFrom, { ...options.notices, [CANCEL_CHANNEL]: checkNow }, log)
    : undefined;
  const unsubscribe = deps.lifecycle.cancels.on(checkNow);
  let stopping = false;
  let wake: () => void = () => {};
  let lastMaintenance = 0;
  let lastScheduled = 0;
  const claims = outageLog(log, 'claiming sessions');

  const loop = (async () => {
    while (!stopping) {
      if (options.maintenance && Date.now() - lastMaintenance >= options.maintenanceMs) {
        lastMaintenance = Date.now();
        await options.maintenance().catch((err) => log.error({ err }, 'maintenance failed'));
      }
      const { scheduler } = options;
      if (scheduler && Date.now() - lastScheduled >= scheduler.everyMs) {
        lastScheduled = Date.now();
        await scheduler.run().catch((err) => log.error({ err }, 'the scheduler could not look for due runs'));
      }
      let claim: Claim | null = null;
      if (active.size < options.concurrency) {
        claim = await deps.leases.claim([...active.keys()]).then(
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
  const { leases } = deps;
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
  try {
    await beat();
    await deps.lifecycle.begin(id, leases.owner);
    log.info({ attempt: claim.attempts }, 'claimed session');
    await runStoredSession(deps, id, {
      log,
      signal: controller.signal,
      owner: leases.owner,
      giveUp: giveUp.signal,
      // Anything but the requester's cancel leaves the session to continue from its checkpoint.
      handedBack: (error) =>
        error instanceof LeaseLostError || (controller.signal.aborted && controller.signal.reason !== CANCEL),
    });
  } catch (error) {
    log.error({ err: error }, 'could not start the session');
  } finally {
    clearInterval(timer);
    await leases.release(id).catch((err) => log.error({ err }, 'could not release the session'));
  }
}
