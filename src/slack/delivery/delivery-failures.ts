import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import type { OutboxRow } from '../../sessions/records/outbox-store.js';
import { SlackCallError, SlackRateLimited } from '../api/slack-errors.js';
import { noticeMessage } from '../render/messages.js';
import type { CanvasPayload } from '../thread/session-thread.js';

export type Failure =
  | { kind: 'rate-limited'; code: 'ratelimited' }
  /** Our token or scopes: nothing will work until the operator fixes it; keep everything pending. */
  | { kind: 'auth'; code: string }
  /** The conversation cannot be used: the requester gets the report by DM. */
  | { kind: 'channel-gone'; code: string; note?: string }
  /** Slack said no to this write for good. `quiet`: expected (an edit of a message that is gone, no canvases here). */
  | { kind: 'refused'; code: string; quiet?: boolean }
  /** Network, timeout, 5xx: try again; `mayHaveLanded` when Slack may have acted on it anyway. */
  | { kind: 'transient'; code: string; mayHaveLanded: boolean };

/** The token itself does not work: nothing will until the operator fixes it. */
const TOKEN = new Set(['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']);
const AUTH = new Set([...TOKEN, 'missing_scope', 'no_permission']);

/** Why the thread cannot be used, as the requester is told. */
const CHANNEL_GONE: Record<string, string> = {
  channel_not_found: 'I can no longer see the channel',
  is_archived: 'the channel is archived',
  not_in_channel: 'I am no longer a member of the channel',
  restricted_action: 'the channel does not allow me to post',
  thread_not_found: 'the thread was deleted',
};

const RETRYABLE = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);
const MESSAGE_GONE = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed']);

/**
 * Slack will not do this kind of write here (a canvas, a stream: the plan, the
 * workspace's settings, the conversation type, a scope we lack), as opposed to
 * a bad token, a conversation we cannot use, or a transient failure.
 */
export function featureRefused(code: string, op: OutboxRow['op'] = 'post'): boolean {
  // A canvas or an agent status refused for the channel (restricted_action…) is not a thread we cannot post
  // in: messages may work.
  const besideMessages = op === 'canvas' || op === 'agent_status';
  return !RETRYABLE.has(code) && !TOKEN.has(code) && (besideMessages || !(code in CHANNEL_GONE));
}

/**
 * Attempts an agent status gets when Slack fails it for a while: the
 * session's later writes (its report) wait behind it, and the status is only
 * the thread's label.
 */
const AGENT_STATUS_ATTEMPTS = 3;

export function classifyFailure(row: OutboxRow, error: unknown): Failure {
  if (error instanceof SlackRateLimited) return { kind: 'rate-limited', code: 'ratelimited' };
  const shows = row.op === 'post' || row.op === 'upload';
  if (row.op === 'agent_status' && row.attempts >= AGENT_STATUS_ATTEMPTS)
    return { kind: 'refused', code: errorCode(error), quiet: true };
  if (!(error instanceof SlackCallError))
    return { kind: 'transient', code: errorCode(error), mayHaveLanded: shows };
  const code = error.code;
  // Canvases may be off for the plan, the workspace or our scopes (an install from before we used them):
  // the report goes to the thread as messages instead.
  if (row.op === 'canvas' && featureRefused(code, 'canvas')) return { kind: 'refused', code, quiet: true };
  if (AUTH.has(code)) return { kind: 'auth', code };
  const reason = CHANNEL_GONE[code];
  if (reason && row.channelId !== 'dm') {
    return {
      kind: 'channel-gone',
      code,
      note: `sent to the requester by direct message: ${reason} (${code})`,
    };
  }
  if (RETRYABLE.has(code)) return { kind: 'transient', code, mayHaveLanded: shows };
  return { kind: 'refused', code, quiet: row.op === 'update' && MESSAGE_GONE.has(code) };
}

function errorCode(error: unknown): string {
  if (error instanceof SlackCallError) return error.code;
  return String((error as { code?: string }).code ?? (error as Error).name ?? 'error');
}

/** How a write Slack refused for good is logged: expected refusals are warnings. */
export function refusalLog(row: OutboxRow, failure: Failure): { level: 'warn' | 'error'; text: string } {
  if (row.op === 'canvas') {
    const text = 'Slack would not make or share a canvas; the report goes to the thread as messages';
    if (!(row.payload as CanvasPayload).required) return { level: 'warn', text };
    const fix = "REPORT_FORMAT=canvas needs canvases on the workspace's plan and the canvases:write scope";
    return { level: 'error', text: `${text}. ${fix} (reinstall the app after adding it)` };
  }
  if (row.op === 'agent_status')
    return {
      level: 'warn',
      text: 'Slack did not take an agent session status; the thread goes on without it',
    };
  if (failure.kind === 'refused' && failure.quiet)
    return { level: 'warn', text: 'Slack refused an edit of a message that is gone' };
  return { level: 'error', text: 'Slack refused a write' };
}

/**
 * What the requester gets instead when the thread cannot be used: one
 * sentence saying why, then copies of everything essential that failed there.
 */
export function fallbackIntents(row: OutboxRow, failed: OutboxIntent[], code: string): OutboxIntent[] {
  const why = CHANNEL_GONE[code] ?? `Slack refused it (${code})`;
  const notice: OutboxIntent = {
    key: 'dm:notice',
    op: 'post',
    role: 'notice:fallback',
    channelId: 'dm',
    payload: {
      message: noticeMessage(
        `:warning: I could not post your research in <#${row.channelId}> because ${why}, so here it is. (session ${row.sessionId})`,
      ),
    },
  };
  const copies = failed.map((intent) => ({
    key: `dm:${intent.key}`,
    op: intent.op,
    role: intent.role,
    channelId: 'dm',
    payload: intent.payload,
    essential: true,
  }));
  return [notice, ...copies];
}

/** 1 s, 2 s, 4 s… up to a minute, with jitter so a recovering Slack is not hit all at once. */
export function backoffMs(attempts: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempts - 1), 60_000);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}
