import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

const FILE = /^(\d+)_[\w-]+\.sql$/;
/** Arbitrary but fixed: every process migrating this database takes the same lock. */
const MIGRATION_LOCK = 7_316_402;

export interface MigrationResult {
  applied: string[];
}

/**
 * Applies `migrations/NNN_name.sql` in order, each in its own transaction and
 * recorded in `schema_migrations`; already-applied files are skipped, so a
 * second run is a no-op. An advisory lock makes a second process starting at
 * the same time wait, then find nothing left to do. A database already up to
 * date is told by one read, without the lock (most starts: a command's start
 * waits on it).
 */
export async function migrate(pool: pg.Pool, dir: string): Promise<MigrationResult> {
  const files = readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort((a, b) => Number(FILE.exec(a)![1]) - Number(FILE.exec(b)![1]));
  if (await upToDate(pool, files)) return { applied: [] };
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    );
    for (const file of files) {
      const id = Number(FILE.exec(file)![1]);
      if (done.has(id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(readFileSync(join(dir, file), 'utf8'));
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [id, file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return { applied };
}

async function upToDate(pool: pg.Pool, files: string[]): Promise<boolean> {
  try {
    const { rows } = await pool.query<{ id: number }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    return files.every((file) => done.has(Number(FILE.exec(file)![1])));
  } catch (error) {
    // A new database has no table yet: the locked path creates it.
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return false;
    throw error;
  }
}

const UNDEFINED_TABLE = '42P01';
