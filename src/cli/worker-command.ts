import type { Store } from '../compose.js';
import type { Config } from '../config.js';
import type { EngineDeps } from '../engine/session-context.js';
import type { EngineSettings } from '../engine/settings.js';
import { runMaintenance } from '../jobs/maintenance.js';
import { SessionLeases } from '../jobs/session-leases.js';
import { startWorker, workerName } from '../jobs/worker.js';
import { systemClock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { SlackRateLimits } from '../slack/slack-rate-limits.js';
import { startSlackDelivery } from '../slack/slack-surfaces.js';

/**
 * `deep-research worker`: runs queued sessions until SIGTERM or SIGINT, then
 * drains: stops claiming, hands running sessions back at their last
 * checkpoint (another worker resumes them) and exits. With a Slack token it
 * also delivers the Slack outbox.
 */
export async function workerCommand(
  config: Config,
  store: Store,
  engine: Omit<EngineDeps, 'emit' | 'saveCheckpoint'>,
  settings: EngineSettings,
  logger: Logger,
  stop: AbortSignal,
): Promise<number> {
  const { db, sessions, lifecycle } = store;
  if (db.embedded)
    logger.info({}, 'embedded database: no other process may use DATA_DIR while this worker runs');
  const owner = workerName();
  // Without Slack credentials this worker cannot publish to threads, so it leaves Slack sessions to others.
  const slack = config.slack.botToken
    ? startSlackDelivery(store, {
        botToken: config.slack.botToken,
        apiUrl: config.slack.apiUrl,
        limits: new SlackRateLimits(),
        updatesPerMinute: config.slack.updatesPerMinute,
        clock: systemClock,
        logger,
        owner,
        claimMs: config.jobs.leaseMs,
      })
    : undefined;
  const leases = new SessionLeases(db.pool, owner, config.jobs.leaseMs, slack ? ['slack', 'cli'] : ['cli']);
  const worker = startWorker(
    { sessions, lifecycle, leases, engine, settings, logger, surfaceFor: slack?.surfaceFor },
    {
      concurrency: config.jobs.concurrentSessions,
      pollMs: 1000,
      heartbeatMs: Math.max(1000, config.jobs.leaseMs / 3),
      maintenanceMs: 10 * 60_000,
      maintenance: () =>
        runMaintenance(
          store,
          {
            clarifyTimeoutHours: config.jobs.clarifyTimeoutHours,
            retentionDays: config.database.retentionDays,
          },
          logger,
        ),
    },
  );
  logger.info(
    { owner, concurrency: config.jobs.concurrentSessions, slack: Boolean(slack) },
    'worker started',
  );
  await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  logger.info({ running: worker.running().length }, 'draining');
  await worker.stop();
  await slack?.stop();
  logger.info({}, 'worker stopped');
  return 0;
}
