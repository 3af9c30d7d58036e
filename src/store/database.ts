import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { keepPrivate, type ServedDatabase, serveEmbedded, socketUrl } from './embedded-database.js';
import { claimEmbedded } from './embedded-lock.js';

/** A pool, or one client inside a transaction: what a statement needs to run. */
export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Runs `work` in one transaction on one connection of `pool`, under the
 * advisory lock `lock` when given (Postgres and PGlite alike): decisions that
 * count rows before adding one stay atomic under concurrency.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: Queryable) => Promise<T>,
  lock?: number,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    if (lock !== undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [lock]);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((err: Error) => {
      broken = err;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A connection pool on real Postgres or on the embedded PGlite; the rest of the code cannot tell which. */
export interface Database {
  pool: pg.Pool;
  /** Connection string for libraries that open their own connections (the job queue). */
  url: string;
  embedded: boolean;
  /**
   * The embedded database this process opened is migrated: short commands of
   * other processes may join it from now on (before, they wait).
   */
  share?(): void;
  close(): Promise<void>;
}

/**
 * `url` set: that Postgres. Unset: PGlite under `dataDir`, served by a thread
 * of this process on a Unix socket only this user may open, so `pg` reaches
 * it through the same code path (embedded-database.ts). The embedded
 * database is single-session: transactions must stay short and never await
 * another query while open, and only one process opens it; a short command
 * joins it through that process's socket, a long one is refused in one
 * sentence (embedded-lock.ts).
 */
export async function openDatabase(options: {
  url?: string;
  dataDir: string;
  maxConnections?: number;
  /**
   * Bounds every query (server-side statement timeout and a client-side read
   * timeout, which also ends a query to a frozen server); connecting is
   * bounded at 5 s. Without them a hung database hangs every caller.
   */
  queryTimeoutMs?: number;
  /** An idle connection broke (the server restarted, a network blip): the pool replaces it on next use. */
  onConnectionLost?: (error: Error) => void;
  /** A short command may use an embedded database another process has open, through that process. */
  join?: boolean;
  /** What this process runs: told to a process refused the embedded database. */
  command?: string;
}) {
  // Without a listener a broken idle connection is an uncaught 'error' event, which ends the process.
  const watch = (pool: pg.Pool) => pool.on('error', (error) => options.onConnectionLost?.(error));
  const timeout = options.queryTimeoutMs ?? 20_000;
  const limits = { connectionTimeoutMillis: 5000, statement_timeout: timeout, query_timeout: timeout + 1000 };
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, ...limits });
    watch(pool);
    return { pool, url: options.url, embedded: false, close: () => pool.end() } satisfies Database;
  }
  const dataDir = resolve(options.dataDir);
  const dir = resolve(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const claim = await claimEmbedded(dataDir, resolve(dataDir, 'pglite.lock'), options);
  const served = (socketDir: string) => {
    const url = socketUrl(socketDir);
    const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 5, ...limits });
    watch(pool);
    return { pool, url };
  };
  if (!claim.owner) {
    const { pool, url } = served(claim.socketDir);
    return { pool, url, embedded: true, close: () => pool.end() } satisfies Database;
  }
  let server: ServedDatabase;
  try {
    // The owner's to keep private (a joining command only reaches it through the owner's socket).
    keepPrivate(dataDir, dir);
    server = await serveEmbedded(dataDir, dir);
  } catch (error) {
    claim.unlock();
    throw error;
  }
  const { pool, url } = served(server.socketDir);
  return {
    pool,
    url,
    embedded: true,
    // Not at once: a process joining while this one migrates would migrate too (one session: one advisory lock).
    share: () => claim.publish(server.socketDir),
    close: async () => {
      await pool.end();
      await server.close();
      claim.unlock();
    },
  } satisfies Database;
}
