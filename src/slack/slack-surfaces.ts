import type { SurfaceFactory } from '../jobs/session-surface.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { SessionStore } from '../store/session-store.js';
import { EditScheduler } from './publish/edit-scheduler.js';
import { ThreadPublisher } from './publish/thread-publisher.js';
import type { SlackApi } from './slack-api.js';

/**
 * What a worker needs to publish Slack sessions: one edit scheduler for the
 * whole process (so every session shares the workspace's edit budget) and a
 * thread publisher per session.
 */
export function slackSurfaces(
  api: SlackApi,
  sessions: SessionStore,
  options: { updatesPerMinute: number; clock: Clock; logger: Logger; editIntervalMs?: number },
): { surfaceFor: SurfaceFactory; edits: EditScheduler } {
  const edits = new EditScheduler((target, message) => api.updateOnce(target.channel, target.ts, message), {
    minIntervalMs: options.editIntervalMs ?? 3000,
    perMinute: options.updatesPerMinute,
    logger: options.logger,
    now: () => options.clock.now(),
  });
  return {
    edits,
    surfaceFor: (row, state, log) =>
      ThreadPublisher.open({ api, edits, sessions, clock: options.clock }, row, state, log),
  };
}
