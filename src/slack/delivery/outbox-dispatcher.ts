import type { Metrics } from '../../metrics/metrics.js';
import type { Logger } from '../../ports/logger.js';
import type { OutboxRow, OutboxStore } from '../../sessions/records/outbox-store.js';
import type { SessionLifecycle } from '../../sessions/records/session-lifecycle.js';
import type { SessionStore } from '../../sessions/records/session-store.js';
import { outageLog } from '../../store/database-outage.js';
import type { SlackApi } from '../api/slack-api.js';
import { Budget } from './delivery-budget.js';
import type { EditScheduler } from './edit-scheduler.js';
import { type DeliveryPause, recordFailure } from './failed-write.js';
import { performIntent } from './perform-intent.js';

export interface DispatcherDeps {
  outbox: OutboxStore;
  lifecycle: SessionLifecycle;
  sessions: SessionStore;
  /** A client without retries of its own: the dispatcher must know when an attempt's outcome is unknown. */
  api: SlackApi;
  edits: EditScheduler;
  log: Logger;
  /** This process's name on its claims. */
  owner: string;
  /** How long a claim keeps other processes off an intent. */
  claimMs: number;
  pollMs?: number;
  /** Slack calls in flight at once (of different sessions); edits wait in the scheduler instead. */
  concurrency?: number;
  metrics?: Metrics;
  /**
   * A session came to rest in delivery: its report is in its thread (`done`),
   * or its thread could not be opened (`failed`). The session room announces it.
   */
  rested?: (sessionId: string, status: 'done' | 'failed') => void;
}

export interface Delivered {
  sessionId: string;
  role: string;
  channelId: string;
  ts: string;
  streaming: boolean;
}

export interface Dispatcher {
  /** Something was recorded: look now rather than at the next poll. */
  nudge(): void;
  /** Calls `listener` for every message this process delivers; returns how to stop. */
  onDelivered(listener: (delivered: Delivered) => void): () => void;
  /** Set while Slack refuses our token or scopes: what it said. */
  degraded(): string | undefined;
  readonly stats: { sent: number; failed: number; rateLimited: number; retried: number; adopted: number };
  stop(): Promise<void>;
}

const EXPIRY_CHECK_MS = 10_000;
const BURST_MS = 50;
/** Heads looked at per round: enough that sessions held back by a channel's budget do not hide the rest. */
const DUE_WINDOW = 200;
/**
 * Edits handed to the edit scheduler at once. They wait there for the
 * workspace's budget (minutes, under load) without holding a call slot; if
 * one outlasts its claim another process may send the same content again,
 * which changes nothing.
 */
const EDITS_IN_FLIGHT = 500;

/**
 * Delivers the Slack outbox: the oldest pending intent of each session, in
 * parallel across sessions, each when its method's budget allows. A 429
 * waits out Retry-After; network errors, timeouts and 5xx back off and try
 * again until the deadline, first looking in the thread for a post that may
 * have landed (message metadata) so nothing is posted twice; a channel that
 * cannot be used sends the report to the requester by DM; a refused token
 * pauses delivery and marks the process degraded. Any process with a Slack
 * token runs one, so pending intents survive every crash.
 */
export function startDispatcher(deps: DispatcherDeps): Dispatcher {
  const { outbox, log } = deps;
  const concurrency = deps.concurrency ?? 8;
  const pollMs = deps.pollMs ?? 1000;
  const inFlight = new Map<string, Promise<void>>();
  const busy = { calls: 0, edits: 0 };
  const listeners = new Set<(d: Delivered) => void>();
  const dms = new Map<string, string>();
  const fellBack = new Set<string>();
  const stats = { sent: 0, failed: 0, rateLimited: 0, retried: 0, adopted: 0 };
  // Set while Slack refuses our token or scopes: delivery pauses, doubling up to a minute.
  const pause: DeliveryPause = {};
  let stopped = false;
  let nextExpiry = 0;
  // A wake-up during a pass is not lost: the loop goes round again instead of sleeping.
  let woken = false;
  let sleeping: (() => void) | undefined;
  const wake = () => {
    woken = true;
    sleeping?.();
  };

  const context = {
    api: deps.api,
    edits: deps.edits,
    sessions: deps.sessions,
    outbox,
    dmChannel: async (user: string) => {
      let channel = dms.get(user);
      if (!channel) {
        channel = await deps.api.openDm(user);
        dms.set(user, channel);
      }
      return channel;
    },
    adopted: () => {
      stats.adopted += 1;
    },
    fellBack: (what: string, code: string) => {
      if (fellBack.has(`${what}:${code}`)) return;
      fellBack.add(`${what}:${code}`);
      log.warn({ code }, `Slack refused ${what}`);
    },
  };

  async function settle(sessionId: string): Promise<void> {
    const status = await deps.lifecycle.settleDelivery(sessionId);
    if (status === 'done') {
      log.info({ sessionId }, 'report delivered');
      deps.rested?.(sessionId, 'done');
    } else if (status === 'failed') {
      log.error({ sessionId }, 'the thread of a scheduled run could not be posted');
      deps.rested?.(sessionId, 'failed');
    } else if (status === 'undeliverable') log.error({ sessionId }, 'report undeliverable');
  }

  async function attempt(row: OutboxRow): Promise<void> {
    try {
      const where = await performIntent(context, row);
      await outbox.sent(row, where);
      stats.sent += 1;
      deps.metrics?.delivered(row.op, (Date.now() - row.createdAt.getTime()) / 1000);
      if (pause.degraded) {
        log.info({ after: pause.degraded.code }, 'Slack accepts our writes again; delivery resumed');
        pause.degraded = undefined;
      }
      if (where?.ts) {
        const delivered = {
          sessionId: row.sessionId,
          role: row.role,
          channelId: where.channelId,
          ts: where.ts,
          streaming: Boolean(where.streaming),
        };
        for (const listener of listeners) listener(delivered);
      }
    } catch (error) {
      await recordFailure(row, error, { outbox, lifecycle: deps.lifecycle, log, stats, pause });
    }
    // Only the report's own writes decide whether the requester has it, and a root whether the thread exists.
    if (row.essential || (row.role === 'root' && !row.threadTs)) await settle(row.sessionId);
  }

  async function expireOverdue(): Promise<void> {
    for (const { sessionId, lastError } of await outbox.expireOverdue()) {
      log.error({ sessionId, lastError }, 'Slack delivery deadline passed');
      await settle(sessionId);
    }
  }

  const reading = outageLog(log, 'Slack delivery reading the outbox');
  const loop = (async () => {
    while (!stopped) {
      woken = false;
      let waitMs = pollMs;
      try {
        if (Date.now() >= nextExpiry) {
          nextExpiry = Date.now() + EXPIRY_CHECK_MS;
          await expireOverdue();
        }
        const { degraded } = pause;
        if (degraded && Date.now() < degraded.until) waitMs = degraded.until - Date.now();
        else waitMs = Math.min(waitMs, await startDue());
        reading.ok();
      } catch (err) {
        reading.failed(err);
      }
      if (stopped) break;
      if (woken) {
        // Woken during the pass: go round again soon, gathering the wake-ups of a burst into one pass.
        await new Promise((resolve) => setTimeout(resolve, BURST_MS));
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(10, waitMs));
        sleeping = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      sleeping = undefined;
    }
  })();

  /** Starts what is due and within budget; returns how soon something held back by a budget will be. */
  async function startDue(): Promise<number> {
    const chosen: { row: OutboxRow; kind: 'calls' | 'edits' }[] = [];
    const slots = { calls: concurrency - busy.calls, edits: EDITS_IN_FLIGHT - busy.edits };
    const budget = new Budget(deps.api.limits);
    let soonest = pollMs;
    if (slots.calls <= 0 && slots.edits <= 0) return soonest;
    for (const row of await outbox.due(DUE_WINDOW)) {
      const kind = row.op === 'update' ? 'edits' : 'calls';
      if (inFlight.has(row.id) || slots[kind] <= 0) continue;
      const wait = budget.reserve(row);
      if (wait > 0) {
        soonest = Math.min(soonest, wait);
        continue;
      }
      slots[kind] -= 1;
      chosen.push({ row, kind });
    }
    const claims = await Promise.all(chosen.map(({ row }) => outbox.claim(row.id, deps.owner, deps.claimMs)));
    chosen.forEach(({ row, kind }, i) => {
      const claim = claims[i];
      if (!claim || stopped) return;
      busy[kind] += 1;
      const claimed = { ...row, attempts: row.attempts + 1, uncertain: claim.wasUncertain };
      inFlight.set(
        row.id,
        attempt(claimed)
          .catch((err) => log.error({ err, sessionId: row.sessionId }, 'Slack delivery failed unexpectedly'))
          .finally(() => {
            busy[kind] -= 1;
            inFlight.delete(row.id);
            wake();
          }),
      );
    });
    return soonest;
  }

  return {
    nudge: () => wake(),
    onDelivered: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    degraded: () => pause.degraded?.code,
    stats,
    async stop() {
      stopped = true;
      wake();
      await loop;
      // Attempts under way finish (each is bounded by the client's timeout); their claims then lapse or settle.
      await Promise.race([Promise.all(inFlight.values()), new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };
}
