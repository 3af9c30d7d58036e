import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { SessionStatus } from '../../src/sessions/records/session-status.js';

export interface TestSession {
  id?: string;
  origin?: 'slack' | 'cli';
  teamId?: string;
  channelId?: string;
  threadTs?: string;
  turn?: number;
  requester?: string;
  question?: string;
  status?: SessionStatus;
}

/**
 * Puts a session in whatever state a test starts from, bypassing the
 * lifecycle (which only makes allowed moves): test set-up only.
 */
export async function insertSession(pool: pg.Pool, s: TestSession = {}): Promise<string> {
  const id = s.id ?? randomUUID();
  await pool.query(
    `INSERT INTO sessions (id, origin, team_id, channel_id, thread_ts, turn, requester, question, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      s.origin ?? 'cli',
      s.teamId ?? null,
      s.channelId ?? null,
      s.threadTs ?? null,
      s.turn ?? 1,
      s.requester ?? 'ann',
      s.question ?? 'Why?',
      s.status ?? 'running',
    ],
  );
  return id;
}
