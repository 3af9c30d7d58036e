import type { Logger } from '../ports/logger.js';
import { applyRetention } from '../sessions/records/retention.js';
import type { Store } from '../sessions/records/store.js';
import type { TerminalLifecycle } from '../sessions/records/terminal-lifecycle.js';
import type { ReportDeletion } from '../sessions/report-deletion.js';

/**
 * Housekeeping any worker may run: unanswered clarifications expire, terminal
 * sessions whose process died rest interrupted, old sessions are deleted (in
 * Slack too) and old event keys go.
 */
export async function runMaintenance(
  store: Pick<Store, 'db' | 'sessions' | 'lifecycle'> & Partial<Pick<Store, 'audit'>>,
  limits: { clarifyTimeoutHours: number; retentionDays: number; auditRetentionDays?: number },
  log: Logger,
  deletion: Pick<ReportDeletion, 'expire'>,
  terminals?: TerminalLifecycle,
): Promise<{ expired: string[] }> {
  const expired = await store.lifecycle.expireClarifications(limits.clarifyTimeoutHours);
  // Terminal sessions whose process died are shown as interrupted, even if no terminal looks again.
  const interrupted = (await terminals?.interruptLapsed()) ?? [];
  const audit =
    store.audit && limits.auditRetentionDays
      ? { store: store.audit, days: limits.auditRetentionDays }
      : undefined;
  const purged = await applyRetention(store.db.pool, store.sessions, limits.retentionDays, {
    deletion,
    ...(audit && { audit }),
  });
  if (expired.length || purged || interrupted.length)
    log.info({ expired: expired.length, purged, interrupted: interrupted.length }, 'maintenance');
  return { expired };
}
