import type pg from 'pg';
import type { FileRead, FileReads } from '../ports/file-reads.js';

/** File reads on Postgres (file_reads). */
export class FileReadStore implements FileReads {
  constructor(private readonly pool: pg.Pool) {}

  async of(sessionIds: string[]): Promise<FileRead[]> {
    // The newest session's record of a file wins over an earlier session's.
    const { rows } = await this.pool.query(
      `SELECT DISTINCT ON (key) key, state, note FROM file_reads
        WHERE session_id = ANY($1::uuid[])
        ORDER BY key, array_position($1::uuid[], session_id)`,
      [sessionIds],
    );
    return rows.map((r) => ({ key: r.key, state: r.state, ...(r.note ? { note: r.note } : {}) }));
  }

  async begin(sessionId: string, key: string): Promise<FileRead | null> {
    const { rows } = await this.pool.query(
      `WITH fresh AS (
         INSERT INTO file_reads (session_id, key, state) VALUES ($1, $2, 'reading')
         ON CONFLICT (session_id, key) DO NOTHING RETURNING key)
       SELECT key, state, note FROM file_reads
        WHERE session_id = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM fresh)`,
      [sessionId, key],
    );
    const r = rows[0];
    return r ? { key: r.key, state: r.state, ...(r.note ? { note: r.note } : {}) } : null;
  }

  async end(sessionId: string, key: string, state: 'read' | 'refused', note?: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO file_reads (session_id, key, state, note) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id, key) DO UPDATE SET state = $3, note = $4, updated_at = now()`,
      [sessionId, key, state, note ?? null],
    );
  }
}
