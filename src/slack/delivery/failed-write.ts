import type { Logger } from '../../ports/logger.js';
import type { OutboxRow, OutboxStore } from '../../sessions/records/outbox-store.js';
import type { SessionLifecycle } from '../../sessions/records/session-lifecycle.js';
import type { SlackRateLimited } from '../api/slack-errors.js';
import { backoffMs, classifyFailure, fallbackIntents, refusalLog } from './delivery-failures.js';

/** Set while Slack refuses our token or scopes: what it said, and until when delivery waits. */
export interface DeliveryPause {
  degraded?: { code: string; pauseMs: number; until: number };
}

export interface FailureDeps {
  outbox: OutboxStore;
  lifecycle: Pick<SessionLifecycle, 'noteDelivery'>;
  log: Logger;
  stats: { failed: number; rateLimited: number; retried: number };
  pause: DeliveryPause;
}

/**
 * What a write Slack did not take leads to: a 429 waits out Retry-After, a
 * refused token pauses all delivery, a channel that cannot be used sends the
 * report to the requester by DM, a refusal gives the write up, anything else
 * is tried again with backoff (noting whether it may have landed).
 */
export async function recordFailure(
  row: OutboxRow,
  error: unknown,
  { outbox, lifecycle, log, stats, pause }: FailureDeps,
): Promise<void> {
  const failure = classifyFailure(row, error);
  const logged = { sessionId: row.sessionId, role: row.role, op: row.op, code: failure.code };
  switch (failure.kind) {
    case 'rate-limited':
      stats.rateLimited += 1;
      // Not sent now; whether an earlier attempt landed is as unknown as it was (the 429 may be the lookup's).
      await outbox.retry(row.id, (error as SlackRateLimited).retryAfterMs, 'ratelimited', row.uncertain);
      return;
    case 'auth': {
      if (!pause.degraded)
        log.error({ code: failure.code }, 'Slack refuses our token or scopes; delivery paused');
      const pauseMs = Math.min((pause.degraded?.pauseMs ?? 1000) * 2, 60_000);
      pause.degraded = { code: failure.code, pauseMs, until: Date.now() + pauseMs };
      await outbox.retry(row.id, 0, failure.code, row.uncertain);
      return;
    }
    case 'channel-gone': {
      const failed = await outbox.abandonChannel(row.sessionId, row.channelId, failure.code);
      stats.failed += 1;
      if (failed.length === 0) {
        log.warn(logged, 'the thread cannot be used');
        return;
      }
      log.warn(logged, 'the thread cannot be used; sending the report to the requester by DM');
      await outbox.add(row.sessionId, fallbackIntents(row, failed, failure.code));
      await lifecycle.noteDelivery(row.sessionId, failure.note!);
      return;
    }
    case 'refused':
      stats.failed += 1;
      {
        const { level, text } = refusalLog(row, failure);
        log[level](logged, text);
      }
      await outbox.failed(row.id, failure.code);
      return;
    case 'transient': {
      stats.retried += 1;
      if (row.attempts === 1) log.warn({ ...logged, err: error }, 'Slack write failed; retrying');
      await outbox.retry(row.id, backoffMs(row.attempts), failure.code, failure.mayHaveLanded);
      return;
    }
  }
}
