/**
 * One write a session makes to Slack, recorded in the outbox before it is
 * sent. `key` is its idempotency key within the session: recording the same
 * intent twice is one intent, except that an `update` takes the newer content.
 */
export interface OutboxIntent {
  key: string;
  op: 'post' | 'update' | 'delete' | 'react' | 'unreact' | 'upload' | 'canvas' | 'agent_status';
  /** The thread role it writes (see src/slack/thread/thread-roles.ts). */
  role: string;
  /** A channel id, or `'dm'`: the requester's direct messages with the app. */
  channelId: string;
  threadTs?: string;
  payload: unknown;
  /** What the requester must see: it falls back to a DM, and its loss makes the session undeliverable. */
  essential?: boolean;
}

/**
 * SQL that records `$intents` (jsonb) for the session in `$session`, to be
 * embedded in a statement so the intents are written with the state change
 * that causes them. `$hours` is the delivery deadline.
 */
export function insertIntentsSql(from: string, intents: string, hours: string): string {
  return `INSERT INTO slack_outbox
      (session_id, key, op, role, channel_id, thread_ts, payload, essential, deadline_at)
    SELECT s.id, x.key, x.op, x.role, x.channel_id, x.thread_ts, x.payload, COALESCE(x.essential, false),
      now() + make_interval(secs => ${hours}::float8 * 3600)
    FROM ${from} s, jsonb_to_recordset(${intents}::jsonb) AS x(key text, op text, role text,
      channel_id text, thread_ts text, payload jsonb, essential boolean)
    ON CONFLICT (session_id, key) DO UPDATE SET payload = EXCLUDED.payload, state = 'pending',
      version = slack_outbox.version + 1, next_attempt_at = now(), last_error = NULL,
      deadline_at = EXCLUDED.deadline_at
    WHERE slack_outbox.op = 'update'`;
}

export function intentsJson(intents: OutboxIntent[]): string {
  return JSON.stringify(
    intents.map((i) => ({
      key: i.key,
      op: i.op,
      role: i.role,
      channel_id: i.channelId,
      thread_ts: i.threadTs ?? null,
      payload: i.payload,
      essential: Boolean(i.essential),
    })),
  );
}
