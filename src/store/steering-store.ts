import type pg from 'pg';

export interface SteeringNote {
  /** Increasing across the database: the engine remembers the last one it applied. */
  id: number;
  text: string;
}

/** The requester's notes to a running research (session_steering). */
export class SteeringStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(sessionId: string, userId: string, text: string): Promise<void> {
    await this.pool.query('INSERT INTO session_steering (session_id, user_id, text) VALUES ($1, $2, $3)', [
      sessionId,
      userId,
      text,
    ]);
  }

  /** Notes after `afterId`, oldest first. */
  async since(sessionId: string, afterId: number): Promise<SteeringNote[]> {
    const { rows } = await this.pool.query(
      'SELECT id, text FROM session_steering WHERE session_id = $1 AND id > $2 ORDER BY id',
      [sessionId, afterId],
    );
    return rows.map((r) => ({ id: Number(r.id), text: String(r.text) }));
  }
}
