import type pg from 'pg';
import type { ReportDeletion } from '../report-deletion.js';
import type { AuditStore } from './audit-store.js';
import { expiredSessions, purgeTombstones } from './report-erasure.js';
import type { SessionStore } from './session-store.js';

/** Sessions retention deletes in one pass at most; the rest go in the next. */
const PER_PASS = 500;

/**
 * Finished sessions past RETENTION_DAYS are deleted as a person's deletion
 * is (their content at once, what they showed in Slack through the outbox),
 * and their rows go once Slack has been told; Slack event keys go after a
 * day, audit rows after AUDIT_RETENTION_DAYS. Returns the sessions deleted.
 */
export async function applyRetention(
  pool: pg.Pool,
  sessions: Pick<SessionStore, 'purgeProcessedEvents'>,
  retentionDays: number,
  options: {
    deletion: Pick<ReportDeletion, 'expire'>;
    audit?: { store: Pick<AuditStore, 'purge'>; days: number };
  },
): Promise<number> {
  let deleted = 0;
  for (const id of await expiredSessions(pool, retentionDays, PER_PASS))
    if (await options.deletion.expire(id)) deleted += 1;
  await purgeTombstones(pool, retentionDays);
  await sessions.purgeProcessedEvents(24);
  if (options.audit) await options.audit.store.purge(options.audit.days);
  return deleted;
}
