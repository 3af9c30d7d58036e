import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { type ThrowawayCluster, throwawayCluster } from './helpers/throwaway-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    /** PGlite data folders to copy: a new database (initdb done) and one migrated. */
    pgliteEmpty: string;
    pgliteMigrated: string;
  }
}

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Real Postgres for the store and queue tests: a throwaway, migrated template
 * database on the machine's PostgreSQL, or on a throwaway cluster started
 * here when none is reachable. Test files clone the template.
 */
export default async function setup(project: TestProject) {
  let cluster: ThrowawayCluster | null = null;
  let admin = process.env.TEST_PG_ADMIN_URL ?? LOCAL;
  if (!(await reachable(admin))) {
    cluster = await throwawayCluster();
    admin = cluster.url;
  }
  const template = `dr_test_${process.pid}_${Date.now()}`;
  await adminQuery(admin, `CREATE DATABASE ${template}`);
  const pool = new pg.Pool({ connectionString: withDatabase(admin, template) });
  await migrate(pool, join(import.meta.dirname, '../migrations'));
  await pool.end();
  project.provide('pgAdminUrl', admin);
  project.provide('pgTemplate', template);
  const pglite = await pgliteTemplates();
  project.provide('pgliteEmpty', pglite.empty);
  project.provide('pgliteMigrated', pglite.migrated);

  return async () => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${template}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.end();
    cluster?.destroy();
    for (const dir of [pglite.empty, pglite.migrated]) rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * PGlite's first open of a folder runs initdb: 3 s on an idle machine, over 20 s on a busy one, which
 * pushed the tests that open it past their time. They copy these folders instead (a reopen takes a second).
 */
async function pgliteTemplates(): Promise<{ empty: string; migrated: string }> {
  const empty = mkdtempSync(join(tmpdir(), 'pglite-empty-'));
  await (await openDatabase({ dataDir: empty })).close();
  const migrated = mkdtempSync(join(tmpdir(), 'pglite-migrated-'));
  cpSync(join(empty, 'pglite'), join(migrated, 'pglite'), { recursive: true });
  const db = await openDatabase({ dataDir: migrated });
  await migrate(db.pool, join(import.meta.dirname, '../migrations'));
  await db.close();
  return { empty, migrated };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
