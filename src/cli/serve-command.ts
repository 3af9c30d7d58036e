import { randomUUID } from 'node:crypto';
import type { Store } from '../compose.js';
import { type Config, requireSlack } from '../config.js';
import type { EngineDeps } from '../engine/session-context.js';
import type { EngineSettings } from '../engine/settings.js';
import { runMaintenance } from '../jobs/maintenance.js';
import { SessionLeases } from '../jobs/session-leases.js';
import { startWorker, workerName } from '../jobs/worker.js';
import { systemClock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { createSlackApp } from '../slack/slack-app.js';
import { SlackRateLimits } from '../slack/slack-rate-limits.js';
import { SlackSessions } from '../slack/slack-sessions.js';
import { startSlackDelivery } from '../slack/slack-surfaces.js';

export interface ServeOptions {
  /** Spacing of edits to one message; 3 s in production, shorter in tests. */
  editIntervalMs?: number;
  /** Called once the app listens, with its HTTP port (HTTP mode). */
  onListening?: (port: number | undefined) => void;
  pollMs?: number;
}

/**
 * `deep-research serve`: the Slack app, a worker and the Slack delivery in one
 * process. The app records requests and answers at once; the worker runs
 * sessions (these and any other worker's); the dispatcher delivers every
 * session's pending Slack writes, including those a stopped process left.
 * SIGTERM drains: the app stops taking requests, running sessions are handed
 * back at their last checkpoint, undelivered writes stay in the outbox.
 */
export async function serveCommand(
  config: Config,
  store: Store,
  engine: Omit<EngineDeps, 'emit' | 'saveCheckpoint'>,
  settings: EngineSettings,
  logger: Logger,
  stop: AbortSignal,
  options: ServeOptions = {},
): Promise<number> {
  const slack = requireSlack(config);
  const owner = workerName();
  const { db, sessions, lifecycle, outbox } = store;
  const limits = new SlackRateLimits();
  const delivery = startSlackDelivery(store, {
    botToken: slack.botToken,
    apiUrl: slack.apiUrl,
    limits,
    updatesPerMinute: slack.updatesPerMinute,
    clock: systemClock,
    logger,
    owner,
    claimMs: config.jobs.leaseMs,
    editIntervalMs: options.editIntervalMs,
    pollMs: options.pollMs,
  });
  let service!: SlackSessions;
  const app = createSlackApp(
    {
      botToken: slack.botToken,
      signingSecret: slack.signingSecret,
      appToken: slack.appToken,
      apiUrl: slack.apiUrl,
      port: slack.port,
      logger,
      limits,
      health: async () => {
        const pending = await store.outbox.pendingCount();
        const memory = process.memoryUsage();
        const slackError = delivery.dispatcher.degraded();
        return {
          ...(slackError ? { status: 'degraded', slack: `Slack refuses our writes: ${slackError}` } : {}),
          running: worker.running().length,
          // Slack writes waiting in the outbox (all processes), and what this process's dispatcher did.
          delivery: { pending, ...delivery.dispatcher.stats },
          rssBytes: memory.rss,
          heapUsedBytes: memory.heapUsed,
        };
      },
    },
    (api) => {
      service = new SlackSessions({
        sessions,
        lifecycle,
        outbox,
        deliver: () => delivery.dispatcher.nudge(),
        api,
        log: logger,
        newSessionId: randomUUID,
        limits: { perUser: config.jobs.sessionsPerUser, maxQuestionChars: slack.maxQuestionChars },
      });
      return { service, store: sessions };
    },
  );
  const leases = new SessionLeases(db.pool, owner, config.jobs.leaseMs);
  const worker = startWorker(
    { sessions, lifecycle, leases, engine, settings, logger, surfaceFor: delivery.surfaceFor },
    {
      concurrency: config.jobs.concurrentSessions,
      pollMs: options.pollMs ?? 1000,
      heartbeatMs: Math.max(1000, config.jobs.leaseMs / 3),
      maintenanceMs: 10 * 60_000,
      maintenance: async () => {
        const { expired } = await runMaintenance(
          store,
          {
            clarifyTimeoutHours: config.jobs.clarifyTimeoutHours,
            retentionDays: config.database.retentionDays,
          },
          logger,
        );
        await service.showExpired(expired);
      },
    },
  );
  const port = await app.start();
  logger.info(
    slack.appToken ? { mode: 'socket' } : { mode: 'http', port, events: '/slack/events', health: '/healthz' },
    'Slack app ready',
  );
  options.onListening?.(port);
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    else stop.addEventListener('abort', () => resolve(), { once: true });
  });
  logger.info({ running: worker.running().length }, 'draining');
  await app.stop();
  await worker.stop();
  await delivery.stop();
  logger.info({}, 'stopped');
  return 0;
}
