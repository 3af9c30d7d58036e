import pg from 'pg';

/**
 * A throwaway database on the Postgres given by BENCH_DATABASE_URL (default:
 * the local server on 127.0.0.1:5432 as user postgres), dropped afterwards.
 */
export async function benchDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const db = `bench_${name}_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${db}`);
  await client.query(`CREATE DATABASE ${db}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${db}`;
  return {
    url: url.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Rows written and transactions committed so far in a database (Postgres' cumulative statistics). */
export async function writeStats(url: string): Promise<{ rows: number; commits: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_stat_force_next_flush()').catch(() => {});
    const { rows } = await client.query(
      `SELECT tup_inserted + tup_updated + tup_deleted AS rows, xact_commit AS commits
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    return { rows: Number(rows[0].rows), commits: Number(rows[0].commits) };
  } finally {
    await client.end();
  }
}
