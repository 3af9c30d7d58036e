import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/store/database.js';
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
export function embeddedPglite(): Promise<EmbeddedTestDatabase> {
  return pgliteCopy(inject('pgliteMigrated'));
}

/** The embedded default on a throwaway data directory with no migration applied, for migration tests. */
export function emptyPglite(): Promise<EmbeddedTestDatabase> {
  return pgliteCopy(inject('pgliteEmpty'));
}

async function pgliteCopy(template: string): Promise<EmbeddedTestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
  cpSync(join(template, 'pglite'), join(dir, 'pglite'), { recursive: true });
  const db = await openDatabase({ dataDir: dir });
  return { ...db, dataDir: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../migrations');
