import { randomUUID } from 'node:crypto';
import { type Config, requireSlack } from '../config.js';
import type { EngineDeps } from '../engine/session-context.js';
import type { EngineSettings } from '../engine/settings.js';
import { runMaintenance } from '../jobs/maintenance.js';
import { SessionLeases } from '../jobs/session-leases.js';
import { startWorker, workerName } from '../jobs/worker.js';
import { systemClock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { createSlackApp } from '../slack/slack-app.js';
import { SlackSessions } from '../slack/slack-sessions.js';
import { slackSurfaces } from '../slack/slack-surfaces.js';
import type { Database } from '../store/database.js';
import type { SessionStore } from '../store/session-store.js';

export interface ServeOptions {
  /** Spacing of edits to one message; 3 s in production, shorter in tests. */
  editIntervalMs?: number;
  /** Called once the app listens, with its HTTP port (HTTP mode). */
  onListening?: (port: number | undefined) => void;
  pollMs?: number;
}

/**
 * `deep-research serve`: the Slack app and a worker in one process. The app
 * records requests and answers at once; the worker runs sessions (these and
 * any other worker's) and publishes them to their threads. SIGTERM drains
 * both: the app stops taking requests, running sessions are handed back at
 * their last checkpoint.
 */
export async function serveCommand(
  config: Config,
  db: Database,
  sessions: SessionStore,
  engine: Omit<EngineDeps, 'emit' | 'saveCheckpoint'>,
  settings: EngineSettings,
  logger: Logger,
  stop: AbortSignal,
  options: ServeOptions = {},
): Promise<number> {
  const slack = requireSlack(config);
  const owner = workerName();
  const leases = new SessionLeases(db.pool, owner, config.jobs.leaseMs);
  let service!: SlackSessions;
  const app = createSlackApp(
    {
      botToken: slack.botToken,
      signingSecret: slack.signingSecret,
      appToken: slack.appToken,
      apiUrl: slack.apiUrl,
      port: slack.port,
      logger,
      health: async () => {
        await db.pool.query('SELECT 1');
        const memory = process.memoryUsage();
        return { running: worker.running().length, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed };
      },
    },
    (api) => {
      service = new SlackSessions({
        sessions,
        leases,
        api,
        log: logger,
        newSessionId: randomUUID,
        limits: { perUser: config.jobs.sessionsPerUser, maxQuestionChars: slack.maxQuestionChars },
      });
      return { service, store: sessions };
    },
  );
  const { surfaceFor, edits } = slackSurfaces(app.api, sessions, {
    updatesPerMinute: slack.updatesPerMinute,
    clock: systemClock,
    logger,
    editIntervalMs: options.editIntervalMs,
  });
  const worker = startWorker(
    { sessions, leases, engine, settings, logger, surfaceFor },
    {
      concurrency: config.jobs.concurrentSessions,
      pollMs: options.pollMs ?? 1000,
      heartbeatMs: Math.max(1000, config.jobs.leaseMs / 3),
      maintenanceMs: 10 * 60_000,
      maintenance: async () => {
        const { expired } = await runMaintenance(
          sessions,
          leases,
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
  // Final states of sessions that just ended are still worth delivering; not forever, though.
  await edits.drain(5000);
  edits.stop();
  logger.info({}, 'stopped');
  return 0;
}
