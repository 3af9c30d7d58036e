// What a long-running process answers on its HTTP port besides Slack's events: /healthz's figures and OpenAI's webhooks.
import type { Config } from './config/load-config.js';
import { openAiWebhookRoute } from './http/openai-webhook-route.js';
import { announceResponseEnded } from './jobs/notice-listener.js';
import type { ModelLifecycle } from './llm/model-lifecycle.js';
import type { ResponseEndings } from './llm/response-endings.js';
import type { Logger } from './ports/logger.js';
import type { Store } from './sessions/records/store.js';
import type { SlackDelivery } from './slack/slack-surfaces.js';

export type Webhook = ReturnType<typeof openAiWebhookRoute>;

/**
 * OpenAI's webhooks (with OPENAI_WEBHOOK_SECRET): a verified ending wakes the
 * task in this process and, on Postgres, is announced to every other one
 * (the process that owns the task hears it).
 */
export function webhookRoute(
  config: Config,
  store: Store,
  endings: ResponseEndings | undefined,
  logger: Logger,
): Webhook | undefined {
  const secret = config.openai.webhookSecret;
  if (!secret || !endings) return undefined;
  return openAiWebhookRoute({
    secret,
    log: logger,
    onEnded: (id) => {
      endings.notice(id);
      if (!store.db.embedded)
        announceResponseEnded(store.db.pool, id).catch((err) =>
          logger.warn({ err, response: id }, 'could not announce a hosted request’s end to other processes'),
        );
    },
  });
}

export async function health(
  store: Store,
  delivery: SlackDelivery,
  running: () => number,
  models: ModelLifecycle,
) {
  const pending = await store.outbox.pendingCount();
  const memory = process.memoryUsage();
  const slackError = delivery.dispatcher.degraded();
  const { degraded: modelError, ...modelDetail } = models.health();
  return {
    ...(slackError || modelError ? { status: 'degraded' } : {}),
    ...(slackError ? { slack: `Slack refuses our writes: ${slackError}` } : {}),
    // Models the server does not offer (or refused), shutting down within 60 days, or without a price.
    models: modelDetail,
    running: running(),
    // Slack writes waiting in the outbox (all processes), and what this process's dispatcher did.
    delivery: { pending, ...delivery.dispatcher.stats },
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
  };
}
