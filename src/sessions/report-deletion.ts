import type pg from 'pg';
import type { Logger } from '../ports/logger.js';
import type { RecordAudit } from './records/audit-store.js';
import { type EraseIntents, eraseSession } from './records/report-erasure.js';
import type { SessionRow, SessionStore } from './records/session-store.js';

/** Who deletes: the requester, or a workspace admin (the terminal's operator is one). */
export interface DeletionActor {
  id: string;
  isAdmin: () => Promise<boolean>;
}

/** What came of deleting one report: values each surface says in its own words. */
export type Deleted =
  | { kind: 'deleted'; row: SessionRow }
  | { kind: 'missing' }
  | { kind: 'already'; row: SessionRow }
  | { kind: 'not_yours'; row: SessionRow }
  /** Research (or its delivery) is under way: cancel it, then delete it. */
  | { kind: 'unfinished'; row: SessionRow };

/** What came of deleting everything a person asked (an admin's, for a leaver). */
export interface DeletedAll {
  deleted: number;
  /** Still researching (or being delivered): asked to stop when the surface can; deleted by the same command once stopped. */
  unfinished: SessionRow[];
}

/**
 * Deleting reports for real, one definition for every surface: the
 * requester or an admin deletes one; an admin deletes all of a person's;
 * retention deletes what is past RETENTION_DAYS. Content goes at once, what
 * Slack showed goes through the outbox, and each deletion is audited.
 */
export class ReportDeletion {
  constructor(
    private readonly deps: {
      pool: pg.Pool;
      sessions: Pick<SessionStore, 'get' | 'listRecent'>;
      /** The Slack surface's removals (none where no Slack is set up: the writes wait in the outbox for it). */
      erase?: EraseIntents;
      deliveryDeadlineHours: number;
      audit?: RecordAudit;
      log: Logger;
    },
  ) {}

  async delete(id: string, actor: DeletionActor): Promise<Deleted> {
    const row = await this.deps.sessions.get(id);
    if (!row) return { kind: 'missing' };
    if (row.deleted) return { kind: 'already', row };
    if (row.requester !== actor.id && !(await actor.isAdmin())) return { kind: 'not_yours', row };
    return this.erase(row.id, actor.id, row.requester === actor.id ? 'requester' : 'admin');
  }

  /** Everything `requester` asked, for an admin; research still running is asked to stop first. */
  async deleteAllOf(
    requester: string,
    actor: DeletionActor,
    cancel?: (row: SessionRow) => Promise<void>,
  ): Promise<DeletedAll | 'not_admin'> {
    if (!(await actor.isAdmin())) return 'not_admin';
    const rows = await this.deps.sessions.listRecent({ requester, limit: 10_000 });
    const result: DeletedAll = { deleted: 0, unfinished: [] };
    for (const row of rows.filter((r) => !r.deleted)) {
      const done = await this.erase(row.id, actor.id, 'admin');
      if (done.kind === 'deleted') result.deleted += 1;
      if (done.kind === 'unfinished') {
        await cancel?.(row);
        result.unfinished.push(row);
      }
    }
    return result;
  }

  /** Retention's: a finished session past RETENTION_DAYS, deleted in Slack as well. */
  async expire(id: string): Promise<boolean> {
    return (await this.erase(id, 'retention', 'retention')).kind === 'deleted';
  }

  private async erase(id: string, by: string, as: 'requester' | 'admin' | 'retention'): Promise<Deleted> {
    const { pool, erase, deliveryDeadlineHours } = this.deps;
    const erased = await eraseSession(pool, id, by, erase, deliveryDeadlineHours);
    if (!erased.erased)
      return erased.why === 'missing' ? { kind: 'missing' } : { kind: erased.why, row: erased.row! };
    const { row } = erased;
    this.deps.log.info({ sessionId: id, by, writes: erased.writes }, 'report deleted');
    await this.deps.audit?.({
      actor: by,
      action: 'session.deleted',
      teamId: row.teamId,
      channelId: row.channelId,
      sessionId: id,
      detail: { as, requester: row.requester, slackRemovals: erased.writes },
    });
    return { kind: 'deleted', row };
  }
}
