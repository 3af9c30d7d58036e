import type { Checkpoint } from '../../ports/research.js';
import type { Queryable } from '../../store/database.js';
import type { AppliedPolicy } from '../policies/channel-policy.js';
import { insertIntentsSql, intentsJson, type OutboxIntent } from './outbox-intent.js';

export interface NewSession {
  id: string;
  origin: 'slack' | 'cli';
  teamId?: string;
  channelId?: string;
  threadTs?: string;
  turn?: number;
  requester: string;
  question: string;
  /** What it may spend, held against the daily caps until it finishes (see SpendStore). */
  reservedUsd?: number | null;
  /** A session run in the requesting process: held by it from the start (see TerminalLifecycle). */
  lease?: { owner: string; seconds: number };
  /** The schedule this session is a run of. */
  scheduleId?: string;
  /** The channel policy it was admitted under (set by admission). */
  policy?: AppliedPolicy | null;
}

/** How a queued session opens in Slack: the message that opened it (by role) and its first writes. */
export interface SlackOpening {
  opener?: { role: string; ts: string };
  intents?: OutboxIntent[];
}

const COLUMNS =
  'id, origin, team_id, channel_id, thread_ts, turn, requester, question, reserved_usd, schedule_id, policy';

function values(s: NewSession): unknown[] {
  return [
    s.id,
    s.origin,
    s.teamId ?? null,
    s.channelId ?? null,
    s.threadTs ?? null,
    s.turn ?? 1,
    s.requester,
    s.question,
    s.reservedUsd ?? null,
    s.scheduleId ?? null,
    s.policy ? JSON.stringify(s.policy) : null,
  ];
}

/**
 * A session for the workers, with its initial engine state as its first
 * checkpoint, its opener and its first Slack writes, in one statement (on a
 * pool, or on admission's transaction).
 */
export async function insertQueued(
  db: Queryable,
  session: NewSession,
  initial: Checkpoint,
  slack: SlackOpening,
  deliveryDeadlineHours: number,
): Promise<void> {
  await db.query(
    `WITH s AS (
       INSERT INTO sessions (${COLUMNS}, status, queued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'queued', now()) RETURNING id, channel_id),
     c AS (INSERT INTO checkpoints (session_id, state) SELECT id, $12 FROM s),
     m AS (INSERT INTO slack_messages (session_id, role, channel_id, ts)
           SELECT id, $15, channel_id, $16 FROM s WHERE $15::text IS NOT NULL),
     i AS (${insertIntentsSql('s', '$13', '$14')})
     SELECT 1`,
    [
      ...values(session),
      JSON.stringify(initial),
      intentsJson(slack.intents ?? []),
      deliveryDeadlineHours,
      slack.opener?.role ?? null,
      slack.opener?.ts ?? null,
    ],
  );
}

/** A session the CLI runs in its own process (never a job for the workers), with its first checkpoint. */
export async function insertRunning(db: Queryable, session: NewSession, initial: Checkpoint): Promise<void> {
  await db.query(
    `WITH s AS (
       INSERT INTO sessions (${COLUMNS}, status, lease_owner, lease_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'running', $12,
         CASE WHEN $12::text IS NULL THEN NULL ELSE now() + make_interval(secs => $13) END)
       RETURNING id)
     INSERT INTO checkpoints (session_id, state) SELECT id, $14 FROM s`,
    [...values(session), session.lease?.owner ?? null, session.lease?.seconds ?? 0, JSON.stringify(initial)],
  );
}
