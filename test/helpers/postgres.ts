import { mkdtempSync, rmSync } from 'node:fs';
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

/** The embedded default on a throwaway data directory. */
export async function embeddedPglite(): Promise<Database & { cleanup(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
  const db = await openDatabase({ dataDir: dir });
  return { ...db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const MIGRATIONS_DIR = join(import.meta.dirname, '../../migrations');
