import type { AuditStore } from './audit-store.js';
import type { SessionStore } from './session-store.js';

/**
 * Finished sessions past RETENTION_DAYS go (with everything kept with them),
 * Slack event keys past a day, audit rows past AUDIT_RETENTION_DAYS.
 */
export async function applyRetention(
  sessions: SessionStore,
  retentionDays: number,
  audit?: { store: Pick<AuditStore, 'purge'>; days: number },
): Promise<number> {
  const purged = await sessions.purgeSessions(retentionDays);
  await sessions.purgeProcessedEvents(24);
  if (audit) await audit.store.purge(audit.days);
  return purged;
}
