import { randomUUID } from 'node:crypto';
import { composeSessions } from './compose-sessions.js';
import { startApp } from './compose-slack.js';
import { openStoreWhenReachable } from './compose-store.js';
import type { Config } from './config/load-config.js';
import { requireServiceSettings, requireSlack } from './config/requirements.js';
import type { EngineBase } from './engine/session-context.js';
import { type FrontDoor, openFrontDoor } from './http/front-door.js';
import { runMaintenance } from './jobs/maintenance.js';
import { RESPONSE_ENDED_CHANNEL } from './jobs/notice-listener.js';
import { SessionLeases } from './jobs/session-leases.js';
import { startWorker, workerName } from './jobs/worker.js';
import { ResponseEndings } from './llm/response-endings.js';
import { type PrometheusMetrics, prometheusMetrics } from './metrics/prometheus-metrics.js';
import { type Clock, systemClock } from './ports/clock.js';
import type { Logger } from './ports/logger.js';
import { webhookRoute } from './service-endpoints.js';
import { sessionsByStatus } from './sessions/records/session-counts.js';
import { runDueSlots } from './sessions/schedules/scheduled-runs.js';
import type { SessionMoments } from './sessions/session-moments.js';
import { slackApiFor } from './slack/api/slack-clients.js';
import { SlackRateLimits } from './slack/api/slack-rate-limits.js';
import { slackStanding } from './slack/policies/slack-standing.js';
import type { SlackApp } from './slack/slack-app.js';
import { startSlackDelivery } from './slack/slack-surfaces.js';

/** How often a worker looks for scheduled runs whose slot has come (a run starts at most this late). */
const SCHEDULER_EVERY_MS = 10_000;

export interface ServiceOptions {
  /** `serve`: the Slack app too. `worker`: sessions, and Slack delivery when there is a bot token. */
  mode: 'serve' | 'worker';
  /** The engine's adapters; built from the config unless given (tests give a scripted model). */
  engine?: EngineBase;
  /** Spacing of edits to one message; 3 s in production, shorter in tests. */
  editIntervalMs?: number;
  /** How often an idle worker and the outbox look for work. */
  pollMs?: number;
  /** Called once the Slack app listens, with its HTTP port (HTTP mode). */
  onListening?: (port: number | undefined) => void;
  /** Subscribes to the process's session moments (settled, report published) once the room is built. */
  subscribe?: (moments: SessionMoments) => void;
  /** The time schedules are read in, and how often the scheduler looks for due runs (tests move and shorten both). */
  scheduler?: { clock?: Clock; everyMs?: number };
}

/**
 * The composition root of a long-running process: the store (waiting for the
 * database while it is unreachable), the engine, the Slack delivery, the
 * Slack app (`serve`), the worker and its maintenance, built once here and
 * run until `stop` aborts. Then it drains: the app stops taking requests,
 * running sessions are handed back at their last checkpoint and undelivered
 * Slack writes stay in the outbox for the next process.
 */
export async function runService(
  config: Config,
  logger: Logger,
  stop: AbortSignal,
  options: ServiceOptions,
): Promise<number> {
  // Every missing setting in one message, before the database or any model is touched.
  requireServiceSettings(config, options.mode);
  const slack = options.mode === 'serve' ? requireSlack(config) : config.slack;
  const metrics = prometheusMetrics(logger);
  // serve's port answers from the first second: "not ready" and why, until the Slack app takes it.
  const door = options.mode === 'serve' ? await openFrontDoor(slack.port, slack.host) : undefined;
  if (door)
    logger.info(
      { port: door.port, health: '/healthz' },
      'listening; not ready until the database and Slack answer',
    );
  try {
    door?.notReady('starting: opening the database');
    return await serveWith(config, logger, stop, options, metrics, door);
  } finally {
    await door?.close();
  }
}

/** The process behind its port (serve) or without one (worker): store, room, delivery, worker, Slack app. */
async function serveWith(
  config: Config,
  logger: Logger,
  stop: AbortSignal,
  options: ServiceOptions,
  metrics: PrometheusMetrics,
  door: FrontDoor | undefined,
): Promise<number> {
  const slack = config.slack;
  const store = await openStoreWhenReachable(config, logger, stop, {
    command: options.mode,
    ...(door && { waiting: door.notReady }),
  });
  if (!store) return 0;
  try {
    // With a webhook secret, hosted requests' ends wake their tasks: received by `serve`, heard by workers on Postgres.
    const hearsEndings = config.openai.webhookSecret && (options.mode === 'serve' || !store.db.embedded);
    const endings = hearsEndings ? new ResponseEndings() : undefined;
    const limits = new SlackRateLimits();
    // Channel policies that name admins or user groups ask Slack who is which (on the listeners' budget).
    const standing =
      slack.botToken &&
      slackStanding(slackApiFor('listeners', slack.botToken, limits, logger, slack.apiUrl, metrics));
    const room = composeSessions(config, logger, store, {
      engine: options.engine,
      ...(standing && { standing }),
      metrics,
      newSessionId: randomUUID,
      endings,
      ...(options.scheduler?.clock && { clock: options.scheduler.clock }),
    });
    // Nothing to research with (no model access, no search and no documents) ends start-up here, in one line.
    await room.engine();
    // The configured models against their servers' lists: warnings at start, and /healthz's detail after.
    void room.models.announce(logger);
    options.subscribe?.(room.moments);
    const owner = workerName();
    if (store.db.embedded && options.mode === 'worker')
      logger.info(
        {},
        'embedded database: short commands (ask --background, cancel, sessions) share it through this worker; research elsewhere needs DATABASE_URL',
      );
    const delivery = slack.botToken
      ? startSlackDelivery(store, {
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
          reportFormat: slack.reportFormat,
          estimatePlan: room.estimatePlan,
          view: (id) => room.service.view(id),
          rested: (id, status) => void room.moments.rested(id, status),
          metrics,
        })
      : undefined;
    // Without Slack credentials this process cannot publish to threads, so it leaves Slack sessions to others.
    const leases = new SessionLeases(
      store.db.pool,
      owner,
      config.jobs.leaseMs,
      delivery ? ['slack', 'cli'] : ['cli'],
    );
    const worker = startWorker(
      {
        ...room.run,
        leases,
        logger,
        ...(delivery && {
          surfaceFor: delivery.surfaceFor,
          files: { ...room.run.files, fetchers: { ...room.run.files.fetchers, slack: delivery.fetchFile } },
        }),
      },
      {
        concurrency: config.jobs.concurrentSessions,
        pollMs: options.pollMs ?? 1000,
        heartbeatMs: Math.max(1000, config.jobs.leaseMs / 3),
        cancelsFrom: store.db.url,
        notices: endings && { [RESPONSE_ENDED_CHANNEL]: (id) => void endings.notice(id) },
        maintenanceMs: 10 * 60_000,
        scheduler: {
          everyMs: options.scheduler?.everyMs ?? SCHEDULER_EVERY_MS,
          run: async () => {
            const admitted = await runDueSlots(
              {
                schedules: store.schedules,
                service: room.service,
                exists: async (id) => (await store.sessions.get(id)) !== null,
                ...(delivery && { slack: delivery.scheduled }),
                planReviewSeconds: slack.planReviewSeconds,
                log: logger,
              },
              new Date((options.scheduler?.clock ?? systemClock).now()),
            );
            if (admitted) delivery?.dispatcher.nudge();
            await delivery?.scheduled.notifyPauses();
            await delivery?.scheduled.notifyRefusals();
          },
        },
        maintenance: async () => {
          const rules = {
            clarifyTimeoutHours: config.jobs.clarifyTimeoutHours,
            retentionDays: config.database.retentionDays,
            auditRetentionDays: config.database.auditRetentionDays,
          };
          const { expired } = await runMaintenance(store, rules, logger, room.deletion, store.terminals);
          await delivery?.showExpired(expired);
        },
      },
    );
    let app: SlackApp | undefined;
    try {
      if (options.mode === 'serve' && delivery) {
        metrics.scrapeFrom({
          sessionsByStatus: () => sessionsByStatus(store.db.pool),
          queueDepth: () => leases.queueDepth(),
          outboxPending: () => store.outbox.pendingCount(),
          active: () => worker.running().length,
        });
        door?.notReady('starting: asking Slack who the bot token is');
        app = await startApp(config, store, room, delivery, limits, logger, stop, {
          running: () => worker.running().length,
          metrics,
          webhook: webhookRoute(config, store, endings, logger),
          waiting: door?.notReady,
        });
      }
      if (app && door) {
        await app.start(door);
        const { port } = door;
        logger.info(
          slack.appToken
            ? { mode: 'socket', port, health: '/healthz' }
            : { mode: 'http', port, events: '/slack/events', health: '/healthz' },
          'Slack app ready',
        );
        options.onListening?.(port);
      }
      logger.info(
        { owner, mode: options.mode, concurrency: config.jobs.concurrentSessions, slack: Boolean(delivery) },
        'started',
      );
      await new Promise<void>((resolve) => {
        if (stop.aborted) resolve();
        else stop.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      logger.info({ running: worker.running().length }, 'draining');
      await door?.close();
      await app?.stop().catch((err) => logger.warn({ err }, 'the Slack app did not stop cleanly'));
      await worker.stop();
      await delivery?.stop();
      await room.reader.close();
      logger.info({}, 'stopped');
    }
    return 0;
  } finally {
    await store.db.close();
  }
}
