// The store's composition: the database (Postgres, or the embedded one shared with short commands), the
// repositories over it, migrations and retention at every start, for one command or a long-running process.

import type pg from 'pg';
import { MIGRATIONS_DIR } from './compose.js';
import type { Config } from './config/load-config.js';
import { waitUntilReady } from './jobs/wait-until-ready.js';
import { type Logger, silentLogger } from './ports/logger.js';
import { KnowledgeStore } from './search/knowledge/knowledge-store.js';
import { AnswerStore } from './sessions/records/answer-store.js';
import { AuditStore, auditTrail } from './sessions/records/audit-store.js';
import { FeedbackStore } from './sessions/records/feedback-store.js';
import { OutboxStore } from './sessions/records/outbox-store.js';
import { PolicyStore } from './sessions/records/policy-store.js';
import { applyRetention } from './sessions/records/retention.js';
import { ScheduleStore } from './sessions/records/schedule-store.js';
import { SessionLifecycle } from './sessions/records/session-lifecycle.js';
import { SessionStore } from './sessions/records/session-store.js';
import { SpendStore } from './sessions/records/spend-store.js';
import type { Store } from './sessions/records/store.js';
import { TerminalLifecycle } from './sessions/records/terminal-lifecycle.js';
import { ReportDeletion } from './sessions/report-deletion.js';
import { slackErase } from './slack/deletion/slack-erase.js';
import { openDatabase } from './store/database.js';
import {
  databaseAddress,
  databaseCause,
  databaseStartError,
  isDatabaseUnavailable,
} from './store/database-errors.js';
import { FileReadStore } from './store/file-read-store.js';
import { migrate } from './store/migrate.js';
import { SourceTextStore } from './store/source-text-store.js';
import { SteeringStore } from './store/steering-store.js';

/** How a command uses an embedded database another process may have open (store/embedded-lock.ts). */
export interface StoreUse {
  /** A short command: it may use the database through the process that has it open. */
  join?: boolean;
  /** What this process runs, told to a process refused the database. */
  command?: string;
}

export async function openStore(
  config: Config,
  logger?: Logger,
  use: StoreUse = {},
): Promise<Store & { applied: string[] }> {
  try {
    return await openStoreOnce(config, logger, use);
  } catch (error) {
    throw databaseStartError(error, config.database.url) ?? error;
  }
}

/**
 * For long-running processes: while the database cannot be reached, waits
 * and tries again (one log line per attempt) until it answers or `stop`
 * aborts. A refused login or a missing database is not worth waiting for and
 * ends start-up with its line.
 */
export function openStoreWhenReachable(
  config: Config,
  logger: Logger,
  stop: AbortSignal,
  { command, waiting }: { command: string; waiting?: (why: string) => void },
): Promise<(Store & { applied: string[] }) | undefined> {
  const url = config.database.url;
  return waitUntilReady(
    `the database at ${databaseAddress(url)}`,
    () => openStoreOnce(config, logger, { command }),
    {
      logger,
      stop,
      fatal: (error) =>
        isDatabaseUnavailable(error) ? null : (databaseStartError(error, url) ?? (error as Error)),
      cause: databaseCause,
      ...(waiting && { waiting }),
    },
  );
}

async function openStoreOnce(
  config: Config,
  logger: Logger | undefined,
  use: StoreUse,
): Promise<Store & { applied: string[] }> {
  const db = await openDatabase({
    ...use,
    url: config.database.url,
    dataDir: config.database.dataDir,
    queryTimeoutMs: config.database.queryTimeoutMs,
    onConnectionLost: (err) =>
      logger?.warn(
        { cause: databaseCause(err) },
        'a database connection was lost; it is replaced on next use',
      ),
  });
  try {
    const { applied } = await migrate(db.pool, MIGRATIONS_DIR);
    const sessions = new SessionStore(db.pool);
    const audit = new AuditStore(db.pool);
    // Retention at every start too (a terminal-only install has no worker to run it).
    await applyRetention(db.pool, sessions, config.database.retentionDays, {
      deletion: reportDeletion(config, db.pool, sessions, audit, logger ?? silentLogger),
      audit: { store: audit, days: config.database.auditRetentionDays },
    });
    db.share?.();
    const hours = config.slack.deliveryDeadlineHours;
    return {
      db,
      sessions,
      lifecycle: new SessionLifecycle(db.pool, hours),
      outbox: new OutboxStore(db.pool, hours),
      steering: new SteeringStore(db.pool),
      spend: new SpendStore(db.pool),
      sources: new SourceTextStore(db.pool),
      answers: new AnswerStore(db.pool, hours),
      feedback: new FeedbackStore(db.pool),
      fileReads: new FileReadStore(db.pool),
      terminals: new TerminalLifecycle(db.pool, config.jobs.leaseMs),
      knowledge: new KnowledgeStore(db.pool),
      schedules: new ScheduleStore(db.pool),
      audit,
      policies: new PolicyStore(db.pool),
      applied,
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Opens the store for one command, with lapsed terminal sessions put to rest, and closes it after. */
export async function withStore(
  config: Config,
  logger: Logger,
  use: StoreUse,
  run: (store: Store) => Promise<number>,
): Promise<number> {
  const store = await openStore(config, logger, use);
  try {
    // Terminal sessions whose process went away rest interrupted before anything reads or counts them.
    await store.terminals.interruptLapsed();
    return await run(store);
  } finally {
    await store.db.close();
  }
}

/** Deleting reports on this database, in Slack too (the outbox sends the removals wherever Slack is set up). */
export function reportDeletion(
  config: Config,
  pool: pg.Pool,
  sessions: SessionStore,
  audit: AuditStore,
  logger: Logger,
): ReportDeletion {
  return new ReportDeletion({
    pool,
    sessions,
    erase: slackErase,
    deliveryDeadlineHours: config.slack.deliveryDeadlineHours,
    audit: auditTrail(audit, logger),
    log: logger,
  });
}
