import type { Metrics } from '../metrics/metrics.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { SessionView } from '../ports/research.js';
import type { FetchGivenFile } from '../sessions/read-given-files.js';
import type { Store } from '../sessions/records/store.js';
import type { SurfaceFactory } from '../sessions/session-surface.js';
import { slackApiFor } from './api/slack-clients.js';
import type { SlackRateLimits } from './api/slack-rate-limits.js';
import { appendStream } from './api/slack-streams.js';
import { ChannelMembers } from './channel-members.js';
import { EditScheduler } from './delivery/edit-scheduler.js';
import { type Dispatcher, startDispatcher } from './delivery/outbox-dispatcher.js';
import { ThreadPublisher } from './publish/thread-publisher.js';
import type { StreamChunk } from './render/progress-chunks.js';
import { type ScheduledSlack, scheduledSlack } from './schedules/scheduled-slack.js';
import { slackFileFetcher } from './shared-files.js';
import { closingIntents } from './thread/closing-intents.js';
import type { ReportFormat } from './thread/report-intents.js';

export interface SlackDeliveryOptions {
  botToken: string;
  metrics?: Metrics;
  apiUrl?: string;
  /** The process's Slack budget, shared with the listeners. */
  limits: SlackRateLimits;
  updatesPerMinute: number;
  clock: Clock;
  logger: Logger;
  /** This process's name on its outbox claims. */
  owner: string;
  claimMs: number;
  editIntervalMs?: number;
  pollMs?: number;
  reportFormat: ReportFormat;
  /** The pre-flight estimate for a plan under review. */
  estimatePlan: () => Promise<string>;
  /** A stored session as surfaces read it. */
  view: (sessionId: string) => Promise<SessionView | null>;
  /** A session came to rest in delivery (see DispatcherDeps.rested). */
  rested?: (sessionId: string, status: 'done' | 'failed') => void;
}

export interface SlackDelivery {
  surfaceFor: SurfaceFactory;
  /** The files shared in a thread, from Slack's file host (read as a step of the session's run). */
  fetchFile: FetchGivenFile;
  dispatcher: Dispatcher;
  edits: EditScheduler;
  /** Scheduled runs' threads and their owners' pause notices. */
  scheduled: ScheduledSlack;
  /** Clarifications nobody answered in time (already marked expired): their threads say so. */
  showExpired(ids: string[]): Promise<void>;
  /** Stops delivering (what is pending stays in the outbox for the next process) after a last short drain. */
  stop(): Promise<void>;
}

/**
 * What a process with a Slack token runs: the outbox dispatcher, one edit
 * scheduler (so every session shares the workspace's edit budget) and a
 * thread publisher per running session.
 */
export function startSlackDelivery(store: Store, options: SlackDeliveryOptions): SlackDelivery {
  const api = slackApiFor(
    'delivery',
    options.botToken,
    options.limits,
    options.logger,
    options.apiUrl,
    options.metrics,
  );
  const edits = new EditScheduler((target, message) => api.updateOnce(target.channel, target.ts, message), {
    minIntervalMs: options.editIntervalMs ?? 3000,
    perMinute: options.updatesPerMinute,
    logger: options.logger,
    now: () => options.clock.now(),
  });
  const dispatcher = startDispatcher({
    outbox: store.outbox,
    lifecycle: store.lifecycle,
    sessions: store.sessions,
    api,
    edits,
    log: options.logger,
    owner: options.owner,
    claimMs: options.claimMs,
    pollMs: options.pollMs,
    metrics: options.metrics,
    rested: options.rested,
  });
  const deps = {
    outbox: store.outbox,
    dispatcher,
    edits,
    sessions: store.sessions,
    clock: options.clock,
    setStatus: (channel: string, threadTs: string, status: string) =>
      api.setStatus(channel, threadTs, status),
    reportFormat: options.reportFormat,
    estimatePlan: options.estimatePlan,
    appendStream: (channel: string, ts: string, chunks: StreamChunk[]) =>
      appendStream(api, channel, ts, chunks),
    // Tests shorten both live intervals together.
    appendIntervalMs: options.editIntervalMs,
  };
  return {
    surfaceFor: (row, view, log) => ThreadPublisher.open(deps, row, view, log),
    fetchFile: slackFileFetcher(api),
    dispatcher,
    edits,
    scheduled: scheduledSlack({
      api,
      schedules: store.schedules,
      sessions: store.sessions,
      members: new ChannelMembers(api),
      log: options.logger,
    }),
    async showExpired(ids) {
      for (const id of ids) {
        const row = await store.sessions.get(id);
        if (row?.origin !== 'slack') continue;
        const intents = await closingIntents(store.sessions, row, await options.view(id), {
          kind: 'expired',
        });
        await store.outbox.add(id, intents);
      }
      if (ids.length) dispatcher.nudge();
    },
    async stop() {
      await dispatcher.stop();
      await edits.drain(5000);
      edits.stop();
    },
  };
}
