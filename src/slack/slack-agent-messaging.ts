import type { App } from '@slack/bolt';
import type { Logger } from '../ports/logger.js';
import { isResearching } from '../sessions/records/session-status.js';
import type { SessionStore } from '../sessions/records/session-store.js';
import { suggestPrompts } from './api/slack-agents.js';
import type { SlackApi } from './api/slack-api.js';
import { noticeMessage, oneLine } from './render/messages.js';
import type { SlackFeature } from './slack-feature.js';

export interface AgentMessagingDeps {
  sessions: SessionStore;
  api: SlackApi;
  /** Example questions in the Messages tab (SUGGESTED_PROMPTS). */
  prompts: string[];
  /** [Cancel]'s own path: the requester or an admin, "cancelled by @name"; what to tell the person. */
  cancel: (sessionId: string, userId: string) => Promise<string>;
}

/**
 * Slack's agent messaging: opening the Messages tab offers example questions
 * (a message there starts research in its thread, as any DM does), and the
 * Stop Slack shows on a research thread while it is `processing` cancels the
 * thread's research exactly as [Cancel] does. Slack does not change the
 * status itself: the cancelled session's outcome sets it `closed`.
 */
export function agentMessaging(deps: AgentMessagingDeps): SlackFeature {
  return { name: 'agent messaging', register: (app, { log, once }) => register(app, deps, log, once) };
}

function register(
  app: App,
  deps: AgentMessagingDeps,
  log: Logger,
  once: (key: string) => Promise<boolean>,
): void {
  const { api } = deps;
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'messages') return;
    const prompts = deps.prompts.map((message) => ({ title: oneLine(message, 60), message }));
    // A greeting: a failure is only logged.
    await suggestPrompts(api, event.channel, prompts).catch((err) =>
      log.warn({ err, channel: event.channel }, 'could not offer example questions in the Messages tab'),
    );
  });

  app.event('agent_session_stopped', async ({ event, body }) => {
    const { channel, thread_ts: threadTs, user } = event;
    try {
      if (!(await once(`event:${body.event_id}`))) return;
      const latest = (await deps.sessions.threadSessions(body.team_id, channel, threadTs))[0];
      if (!latest || !isResearching(latest.status)) return;
      const reply = await deps.cancel(latest.id, user);
      await api.ephemeral(channel, user, noticeMessage(reply), threadTs);
    } catch (err) {
      log.error({ err, channel, threadTs }, 'Stop on an agent session failed');
    }
  });
}
