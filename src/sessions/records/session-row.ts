import type { FinalReport } from '../../ports/report.js';
import type { AppliedPolicy } from '../policies/channel-policy.js';
import type { SessionStatus } from './session-status.js';

export interface SessionRow {
  id: string;
  origin: 'slack' | 'cli';
  teamId: string | null;
  channelId: string | null;
  threadTs: string | null;
  turn: number;
  requester: string;
  question: string;
  status: SessionStatus;
  plan: string | null;
  report: FinalReport | null;
  error: string | null;
  cancelledBy: string | null;
  /** How the report reached the requester when not in the thread, or why it could not. */
  deliveryNote: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** What it may spend while unfinished, held against the daily caps (null: nothing reserved). */
  reservedUsd: number | null;
  /** The schedule this session is a run of, if any. */
  scheduleId: string | null;
  /** The channel policy it was admitted under, if one applied. */
  policy: AppliedPolicy | null;
  /** Deleted (its content gone, its Slack messages on their way out): by whom and when. */
  deleted: { by: string; at: Date } | null;
}

/** A `sessions` row as the code reads it. */
export function toRow(r: Record<string, unknown>): SessionRow {
  return {
    id: r.id as string,
    origin: r.origin as SessionRow['origin'],
    teamId: r.team_id as string | null,
    channelId: r.channel_id as string | null,
    threadTs: r.thread_ts as string | null,
    turn: r.turn as number,
    requester: r.requester as string,
    question: r.question as string,
    status: r.status as SessionStatus,
    plan: r.plan as string | null,
    report: r.report as FinalReport | null,
    error: r.error as string | null,
    cancelledBy: r.cancelled_by as string | null,
    deliveryNote: r.delivery_note as string | null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
    finishedAt: r.finished_at as Date | null,
    reservedUsd: r.reserved_usd === null || r.reserved_usd === undefined ? null : Number(r.reserved_usd),
    scheduleId: (r.schedule_id as string | null | undefined) ?? null,
    policy: (r.policy as AppliedPolicy | null | undefined) ?? null,
    deleted: r.deleted_at ? { by: r.deleted_by as string, at: r.deleted_at as Date } : null,
  };
}

/** What is recorded with a session when it comes to rest. */
export interface RestingRecord {
  plan?: string;
  report?: FinalReport;
  error?: string;
  /** What the run cost (null: unpriced); its reservation no longer counts once it rests. */
  costUsd?: number | null;
}
