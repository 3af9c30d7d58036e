import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/slack-harness.js';

describe('the database pool', () => {
  it('survives its idle connections being cut (a Postgres restart) and reconnects on next use', async () => {
    const fresh = await realPostgres();
    await fresh.close();
    const lost: Error[] = [];
    const db = await openDatabase({ url: fresh.url, dataDir: '', onConnectionLost: (e) => lost.push(e) });
    try {
      await Promise.all([1, 2, 3].map(() => db.pool.query('SELECT pg_sleep(0.05)')));
      const open = db.pool.totalCount;
      const admin = new pg.Client({ connectionString: fresh.url });
      await admin.connect();
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      await admin.end();
      // Without a listener these would be uncaught 'error' events and end the process.
      // Every idle connection is reported (and dropped) before the next query, so none of them is reused.
      await eventually(() => lost.length >= open, 10_000, 'lost connections reported');
      const { rows } = await db.pool.query('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
