import type { Logger } from '../ports/logger.js';
import type { SessionStore } from '../store/session-store.js';
import type { SessionLeases } from './session-leases.js';

/** Housekeeping any worker may run: unanswered clarifications expire, old sessions and event keys go. */
export async function runMaintenance(
  sessions: SessionStore,
  leases: SessionLeases,
  limits: { clarifyTimeoutHours: number; retentionDays: number },
  log: Logger,
): Promise<{ expired: string[] }> {
  const expired = await leases.expireClarifications(limits.clarifyTimeoutHours);
  const purged = await sessions.purgeSessions(limits.retentionDays);
  await sessions.purgeProcessedEvents(24);
  if (expired.length || purged) log.info({ expired: expired.length, purged }, 'maintenance');
  return { expired };
}
