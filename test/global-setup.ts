import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/store/migrate.js';
import { type ThrowawayCluster, throwawayCluster } from './helpers/throwaway-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    /** Where the first test that opens PGlite leaves its template folders for the others (test/helpers/postgres.ts). */
    pgliteTemplates: string;
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
  const pgliteTemplates = mkdtempSync(join(tmpdir(), 'pglite-templates-'));
  project.provide('pgliteTemplates', pgliteTemplates);

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
    rmSync(pgliteTemplates, { recursive: true, force: true });
  };
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
