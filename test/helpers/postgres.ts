import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrate.js';
import { withDatabase } from '../global-setup.js';

let counter = 0;

/** A fresh, migrated database on real Postgres, cloned from the run's template. */
export async function realPostgres(): Promise<Database> {
  const admin = inject('pgAdminUrl');
  const name = `${inject('pgTemplate')}_${process.pid}_${++counter}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  } finally {
    await client.end();
  }
  return openDatabase({ url: withDatabase(admin, name), dataDir: '' });
}

/** An empty (unmigrated) database on real Postgres, for migration tests. */
export async function emptyPostgres(): Promise<Database> {
  const admin = inject('pgAdminUrl');
  const name = `${inject('pgTemplate')}_empty_${process.pid}_${++counter}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return openDatabase({ url: withDatabase(admin, name), dataDir: '' });
}

/** PGlite on its own folder (`dataDir`, to open again as a restarted process would). */
export type EmbeddedTestDatabase = Database & { dataDir: string; cleanup(): void };

/** The embedded default on a throwaway data directory, migrated (a copy of the run's template). */
export async function embeddedPglite(): Promise<EmbeddedTestDatabase> {
  return pgliteCopy(join(await pgliteTemplates(), 'migrated'));
}

/** The embedded default on a throwaway data directory with no migration applied, for migration tests. */
export async function emptyPglite(): Promise<EmbeddedTestDatabase> {
  return pgliteCopy(join(await pgliteTemplates(), 'empty'));
}

async function pgliteCopy(template: string): Promise<EmbeddedTestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
  cpSync(join(template, 'pglite'), join(dir, 'pglite'), { recursive: true });
  const db = await openDatabase({ dataDir: dir });
  return { ...db, dataDir: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * PGlite's first open of a folder runs initdb: 3 s on an idle machine, over 20 s on a busy one, which pushed
 * the tests that open it past their time. The first test of the run to need PGlite makes two folders (a new
 * database and a migrated one) and the others copy them; a run that opens no PGlite makes none.
 */
async function pgliteTemplates(): Promise<string> {
  const root = inject('pgliteTemplates');
  const [ready, failed] = [join(root, 'ready'), join(root, 'failed')];
  let mine = false;
  try {
    mkdirSync(join(root, 'making'));
    mine = true;
  } catch (error) {
    // EEXIST: another test file is making them.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (mine) {
    try {
      await (await openDatabase({ dataDir: join(root, 'empty') })).close();
      cpSync(join(root, 'empty', 'pglite'), join(root, 'migrated', 'pglite'), { recursive: true });
      const db = await openDatabase({ dataDir: join(root, 'migrated') });
      await migrate(db.pool, MIGRATIONS_DIR);
      await db.close();
      writeFileSync(ready, '');
    } catch (error) {
      writeFileSync(failed, String(error));
      throw error;
    }
  }
  while (!existsSync(ready)) {
    if (existsSync(failed))
      throw new Error(`PGlite's test templates could not be made: ${readFileSync(failed, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return root;
}

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../migrations');
