import { randomUUID } from 'node:crypto';
import type { SessionsRoom } from './compose-sessions.js';
import type { Config } from './config/load-config.js';
import { requireSlack } from './config/requirements.js';
import { waitUntilReady } from './jobs/wait-until-ready.js';
import type { PrometheusMetrics } from './metrics/prometheus-metrics.js';
import { ConfigError } from './ports/errors.js';
import type { Logger } from './ports/logger.js';
import { knowledgeLibrary } from './search/knowledge/ingest-documents.js';
import { health, type Webhook } from './service-endpoints.js';
import { RepeatOfferStore } from './sessions/records/repeat-offer-store.js';
import { ReuseOfferStore } from './sessions/records/reuse-offer-store.js';
import type { Store } from './sessions/records/store.js';
import { slackApiFor } from './slack/api/slack-clients.js';
import { SlackCallError } from './slack/api/slack-errors.js';
import type { SlackRateLimits } from './slack/api/slack-rate-limits.js';
import { ChannelMembers } from './slack/channel-members.js';
import { deletionFeature } from './slack/deletion/slack-deletion.js';
import { exportsFeature } from './slack/exports/slack-exports.js';
import { PlanReview } from './slack/plan-review.js';
import { policiesFeature } from './slack/policies/slack-policies.js';
import { schedulesFeature } from './slack/schedules/slack-schedules.js';
import { sessionButtons } from './slack/session-buttons.js';
import { sessionCommands } from './slack/session-commands.js';
import { agentMessaging } from './slack/slack-agent-messaging.js';
import { createSlackApp, type SlackApp } from './slack/slack-app.js';
import { homeFeature, SlackHome } from './slack/slack-home.js';
import { knowledgeFeature, SlackKnowledgeBase } from './slack/slack-kb.js';
import { finderFeature, SlackReportFinder } from './slack/slack-report-finder.js';
import { SlackReportQuestions } from './slack/slack-report-questions.js';
import { reuseFeature, SlackReuse } from './slack/slack-reuse.js';
import { SlackSessions } from './slack/slack-sessions.js';
import type { SlackDelivery } from './slack/slack-surfaces.js';

/**
 * The Slack app's composition: its features (sessions, plan review, reports'
 * questions, the finder, reuse, Home, the knowledge base) built from the
 * session room and the store, and handed to the app.
 */

/** The Slack app, once Slack has said who the token is (retried while Slack cannot be reached). */
export async function startApp(
  config: Config,
  store: Store,
  room: SessionsRoom,
  delivery: SlackDelivery,
  limits: SlackRateLimits,
  logger: Logger,
  stop: AbortSignal,
  {
    running,
    metrics,
    webhook,
    waiting,
  }: {
    running: () => number;
    metrics: PrometheusMetrics;
    webhook?: Webhook;
    /** Told why Slack cannot be reached, each time (for /healthz). */
    waiting?: (why: string) => void;
  },
): Promise<SlackApp | undefined> {
  const slack = requireSlack(config);
  const api = slackApiFor('listeners', slack.botToken, limits, logger, slack.apiUrl, metrics);
  const identity = await waitUntilReady('Slack', () => api.identity(), {
    logger,
    stop,
    fatal: (error) =>
      error instanceof SlackCallError
        ? new ConfigError(
            'slack_token',
            `Slack refused SLACK_BOT_TOKEN (${error.code}); copy the Bot User OAuth Token from OAuth & Permissions again, and reinstall the app if it was revoked.`,
          )
        : null,
    // Slack's client wraps fetch's failure (slack_webapi_request_error); the network's code is what went wrong.
    cause: (error) => {
      const { code, original } = error as { code?: string; original?: { cause?: { code?: string } } };
      return original?.cause?.code ?? code ?? (error as Error).message;
    },
    ...(waiting && { waiting }),
  });
  if (!identity) return undefined;
  const deliver = () => delivery.dispatcher.nudge();
  const review = new PlanReview({
    sessions: store.sessions,
    service: room.service,
    api,
    log: logger,
    deliver,
    estimatePlan: room.estimatePlan,
    seconds: slack.planReviewSeconds,
  });
  // What every Slack entry point that starts research shares.
  const starting = {
    sessions: store.sessions,
    service: room.service,
    outbox: store.outbox,
    deliver,
    api,
    log: logger,
    newSessionId: randomUUID,
    planReviewSeconds: slack.planReviewSeconds,
  };
  const members = new ChannelMembers(api);
  const questions = new SlackReportQuestions({
    ...starting,
    asking: room.asking,
    answers: store.answers,
    canRead: (channel, user) => members.has(channel, user),
  });
  const reuse = new SlackReuse({
    ...starting,
    library: room.library,
    members,
    offers: new ReuseOfferStore(store.db.pool),
    asking: room.asking,
    reuseDays: config.jobs.reuseDays,
  });
  const home = new SlackHome({
    sessions: store.sessions,
    library: room.library,
    members,
    api,
    log: logger,
    maxQuestionChars: config.slack.maxQuestionChars,
    schedules: room.schedules,
    audit: store.audit,
    policies: room.policies,
  });
  // A person's Home shows their sessions: a session starting a run or coming to rest refreshes it.
  room.moments.onStarted((session) => home.refresh(session.requester, session.teamId));
  room.moments.onSettled(({ session }) => home.refresh(session.requester, session.teamId));
  const service = new SlackSessions({
    ...starting,
    fileMaxBytes: config.reading.maxFileBytes,
    review,
    questions,
    reuse,
    spend: { store: store.spend, caps: config.jobs.spendCaps },
  });
  const app = createSlackApp(
    {
      botToken: slack.botToken,
      signingSecret: slack.signingSecret,
      appToken: slack.appToken,
      apiUrl: slack.apiUrl,
      logger,
      identity,
      health: async () => ({
        ...(await health(store, delivery, running, room.models)),
        ...(webhook ? { openaiWebhooks: webhook.stats } : {}),
      }),
      ...(webhook ? { routes: [webhook.route] } : {}),
      metrics: async () => ({ contentType: metrics.contentType, body: await metrics.render() }),
    },
    {
      service,
      store: store.sessions,
      api,
      // The app's features besides research itself: each answers its sub-commands and registers its listeners.
      features: [
        sessionCommands(service),
        sessionButtons({ service, review, questions, home, feedback: store.feedback }),
        finderFeature(new SlackReportFinder({ library: room.library, members, api })),
        knowledgeFeature(
          new SlackKnowledgeBase({
            api,
            library: knowledgeLibrary({ store: store.knowledge, reader: room.reader }),
            admins: slack.kbAdmins,
            log: logger,
          }),
        ),
        reuseFeature(reuse),
        schedulesFeature({
          schedules: room.schedules,
          api,
          sessions: store.sessions,
          members,
          offers: new RepeatOfferStore(store.db.pool),
        }),
        policiesFeature({ policies: room.policies, api }),
        exportsFeature({
          exports: room.exports,
          sessions: store.sessions,
          outbox: store.outbox,
          members,
          deliver,
          log: logger,
        }),
        deletionFeature({
          deletion: room.deletion,
          sessions: store.sessions,
          api,
          cancel: async (row, by) => void (await service.cancel(row.id, by)),
          deliver,
        }),
        homeFeature(home, (place, question) => service.startFromCommand(place, question)),
        agentMessaging({
          sessions: store.sessions,
          api,
          prompts: slack.suggestedPrompts,
          cancel: (id, user) => service.cancel(id, user),
        }),
      ],
    },
  );
  return app;
}
