import { WebAPIPlatformError } from '@slack/web-api';

/** Slack said no: `code` is Slack's own error string (`not_in_channel`, `msg_too_long`…). */
export class SlackCallError extends Error {
  constructor(
    readonly code: string,
    method: string,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}

/** A 429: the caller decides when to try again. */
export class SlackRateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limited for ${retryAfterMs} ms`);
  }
}

/** Slack's own refusal as a SlackCallError; anything else (network, HTTP) as it was. */
export function translate(error: unknown, method: string): unknown {
  if (error instanceof WebAPIPlatformError) return new SlackCallError(String(error.data.error), method);
  return error;
}
