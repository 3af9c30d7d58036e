import type { Logger } from '../ports/logger.js';
import { applyRetention } from '../store/retention.js';
import type { Store } from '../store/store.js';

/** Housekeeping any worker may run: unanswered clarifications expire, old sessions and event keys go. */
export async function runMaintenance(
  store: Pick<Store, 'sessions' | 'lifecycle'>,
  limits: { clarifyTimeoutHours: number; retentionDays: number },
  log: Logger,
): Promise<{ expired: string[] }> {
  const expired = await store.lifecycle.expireClarifications(limits.clarifyTimeoutHours);
  const purged = await applyRetention(store.sessions, limits.retentionDays);
  if (expired.length || purged) log.info({ expired: expired.length, purged }, 'maintenance');
  return { expired };
}
