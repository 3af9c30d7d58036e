import { createHmac } from 'node:crypto';

export const SIGNING_SECRET = 'test-signing-secret';
export const BOT_TOKEN = 'xoxb-test-token';

let sequence = 0;

/** POSTs a body to the app the way Slack does: v0 signature over timestamp and raw body. */
export async function signedPost(
  url: string,
  body: string,
  contentType: string,
  options: { secret?: string; retryNum?: number; skewSeconds?: number } = {},
): Promise<{ status: number; body: string; ms: number }> {
  const timestamp = String(Math.floor(Date.now() / 1000) + (options.skewSeconds ?? 0));
  const signature = `v0=${createHmac('sha256', options.secret ?? SIGNING_SECRET)
    .update(`v0:${timestamp}:${body}`)
    .digest('hex')}`;
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
      ...(options.retryNum
        ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
        : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: performance.now() - started };
}

export function slashCommand(
  text: string,
  user: string,
  responseUrl: string,
  overrides: Record<string, string> = {},
): string {
  sequence += 1;
  return new URLSearchParams({
    token: 'verification-token',
    team_id: 'T1',
    team_domain: 'test',
    channel_id: 'C1',
    channel_name: 'research',
    user_id: user,
    user_name: user.toLowerCase(),
    command: '/research',
    text,
    api_app_id: 'A1',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: `trigger.${Date.now()}.${sequence}`,
    ...overrides,
  }).toString();
}

export function eventCallback(
  event: Record<string, unknown>,
  eventId = `Ev${Date.now()}${++sequence}`,
): string {
  return JSON.stringify({
    token: 'verification-token',
    team_id: 'T1',
    api_app_id: 'A1',
    event: { event_ts: event.ts, ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { enterprise_id: null, team_id: 'T1', user_id: 'UBOT', is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${eventId}`,
  });
}

export function buttonClick(
  actionId: string,
  value: string,
  user: string,
  message: { channel: string; ts: string; threadTs?: string },
  responseUrl: string,
  type = 'button',
): string {
  sequence += 1;
  const payload = {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), team_id: 'T1' },
    api_app_id: 'A1',
    token: 'verification-token',
    container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
    trigger_id: `trigger.${Date.now()}.${sequence}`,
    team: { id: 'T1', domain: 'test' },
    channel: { id: message.channel, name: 'research' },
    message: { type: 'message', ts: message.ts, thread_ts: message.threadTs, text: '', user: 'UBOT' },
    response_url: responseUrl,
    actions: [
      {
        action_id: actionId,
        block_id: 'actions',
        text: { type: 'plain_text', text: 'button' },
        // An overflow menu's choice arrives as its selected option.
        ...(type === 'overflow'
          ? { selected_option: { value, text: { type: 'plain_text', text: 'option' } } }
          : { value }),
        type,
        // Each click later than the one before, as a person's clicks are.
        action_ts: ((Date.now() + sequence) / 1000).toFixed(6),
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A modal's submission (view_submission) with one input block `block` whose element `action` holds `value`. */
export function viewSubmission(
  callbackId: string,
  privateMetadata: string,
  user: string,
  input: { block: string; action: string; value: string },
): string {
  return viewSubmissionState(callbackId, privateMetadata, user, {
    [input.block]: { [input.action]: { type: 'plain_text_input', value: input.value } },
  });
}

/** A modal's submission with the state Slack sends: each block's element value (`values[block][action]`). */
export function viewSubmissionState(
  callbackId: string,
  privateMetadata: string,
  user: string,
  values: Record<string, Record<string, Record<string, unknown>>>,
): string {
  const payload = {
    type: 'view_submission',
    team: { id: 'T1', domain: 'test' },
    user: { id: user, username: user.toLowerCase(), team_id: 'T1' },
    api_app_id: 'A1',
    token: 'verification-token',
    trigger_id: `trigger.${Date.now()}`,
    view: {
      id: 'V1',
      type: 'modal',
      callback_id: callbackId,
      private_metadata: privateMetadata,
      state: { values },
    },
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';
