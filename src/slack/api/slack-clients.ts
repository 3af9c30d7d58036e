import { LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import { type Metrics, noMetrics } from '../../metrics/metrics.js';
import type { Logger } from '../../ports/logger.js';
import { SlackApi } from './slack-api.js';
import { slackLogger } from './slack-logger.js';
import type { SlackRateLimits } from './slack-rate-limits.js';

/**
 * Web API client settings: 429s are handed back to us instead of pausing the
 * client's whole queue, and transient failures get two quick retries rather
 * than the default half hour of them. The delivery dispatcher retries itself
 * (it must know when an attempt's outcome is unknown), so its client does not.
 */
export function webClientOptions(apiUrl?: string, retries = 2): WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    timeout: 20_000,
    retryConfig: { retries, factor: 2, minTimeout: 200, maxTimeout: 2000 },
  };
}

/**
 * A Web API client for one part of the process, on its shared budget.
 * `delivery`: the outbox dispatcher's, with no retries of its own (the
 * dispatcher retries, and must know when an attempt's outcome is unknown)
 * and 429s handed back. `listeners`: two quick retries, 429s waited out.
 * Either logs only errors; the caller says what failed, once.
 */
export function slackApiFor(
  role: 'delivery' | 'listeners',
  botToken: string,
  limits: SlackRateLimits,
  logger: Logger,
  apiUrl?: string,
  metrics: Metrics = noMetrics,
): SlackApi {
  const delivery = role === 'delivery';
  const client = new WebClient(botToken, {
    ...webClientOptions(apiUrl, delivery ? 0 : 2),
    logger: slackLogger(logger, delivery ? 'slack-delivery' : 'slack', LogLevel.ERROR),
    logLevel: LogLevel.ERROR,
  });
  return delivery
    ? new SlackApi(client, limits, { waitOn429: false, attempts: 1 }, metrics)
    : new SlackApi(client, limits, undefined, metrics);
}
