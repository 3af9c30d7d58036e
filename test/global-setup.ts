import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/store/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

const LOCAL = 'postgres://postgres@127.0.0.1:5432/postgres';
const BIN = '/usr/lib/postgresql/15/bin';

/**
 * Real Postgres for the store and queue tests: a throwaway, migrated template
 * database on the machine's PostgreSQL, or on a throwaway cluster started
 * here when none is reachable. Test files clone the template.
 */
export default async function setup(project: TestProject) {
  let cluster: { dir: string; url: string } | null = null;
  let admin = process.env.TEST_PG_ADMIN_URL ?? LOCAL;
  if (!(await reachable(admin))) {
    cluster = await startCluster();
    admin = cluster.url;
  }
  const template = `dr_test_${process.pid}_${Date.now()}`;
  await adminQuery(admin, `CREATE DATABASE ${template}`);
  const pool = new pg.Pool({ connectionString: withDatabase(admin, template) });
  await migrate(pool, join(import.meta.dirname, '../migrations'));
  await pool.end();
  project.provide('pgAdminUrl', admin);
  project.provide('pgTemplate', template);

  return async () => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${template}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await client.end();
    if (cluster) stopCluster(cluster.dir);
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

async function startCluster(): Promise<{ dir: string; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pgtmp-'));
  const root = process.getuid?.() === 0;
  const asPg = (cmd: string, args: string[]) =>
    root ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args]) : execFileSync(cmd, args);
  if (root) chownSync(dir, 101, 101);
  const port = await freePort();
  asPg(`${BIN}/initdb`, ['-D', `${dir}/data`, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  asPg(`${BIN}/pg_ctl`, [
    '-D',
    `${dir}/data`,
    '-l',
    `${dir}/server.log`,
    '-w',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off`,
    'start',
  ]);
  return { dir, url: `postgres://postgres@127.0.0.1:${port}/postgres` };
}

function stopCluster(dir: string): void {
  const root = process.getuid?.() === 0;
  const args = ['-D', `${dir}/data`, '-m', 'fast', '-w', 'stop'];
  if (root) execFileSync('runuser', ['-u', 'postgres', '--', `${BIN}/pg_ctl`, ...args]);
  else execFileSync(`${BIN}/pg_ctl`, args);
  rmSync(dir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
