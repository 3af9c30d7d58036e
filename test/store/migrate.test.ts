import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrate.js';
import { emptyPglite, emptyPostgres, MIGRATIONS_DIR } from '../helpers/postgres.js';

const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe.each([
  ['real Postgres', emptyPostgres],
  ['embedded PGlite', emptyPglite],
])('migrations on %s', (_name, open) => {
  it('apply in order once, and a second run is a no-op', async () => {
    const db = await open();
    opened.push(db);
    const first = await migrate(db.pool, MIGRATIONS_DIR);
    expect(first.applied).toEqual([
      '001_sessions.sql',
      '002_leases.sql',
      '003_knowledge_base.sql',
      '004_delivery.sql',
      '005_cached_tokens.sql',
      '006_feedback.sql',
      '007_slack_native.sql',
      '008_steering.sql',
      '009_plan_review.sql',
      '010_admission.sql',
      '011_checkpoint_backend_neutral.sql',
      '012_hosted_searches.sql',
      '013_source_store.sql',
      '014_report_answers.sql',
      '015_report_search.sql',
      '016_reuse_offers.sql',
      '017_agent_sessions.sql',
      '018_interrupted.sql',
      '019_reuse_offer_tokens.sql',
      '020_spend_holds.sql',
      '021_file_reads.sql',
      '022_paid_calls.sql',
      '023_schedules.sql',
      '024_schedule_options.sql',
      '025_schedule_guards.sql',
      '026_audit_events.sql',
      '027_channel_policies.sql',
      '028_report_exports.sql',
    ]);
    const second = await migrate(db.pool, MIGRATIONS_DIR);
    expect(second.applied).toEqual([]);
    const { rows } = await db.pool.query('SELECT id, name FROM schema_migrations ORDER BY id');
    expect(rows).toEqual([
      { id: 1, name: '001_sessions.sql' },
      { id: 2, name: '002_leases.sql' },
      { id: 3, name: '003_knowledge_base.sql' },
      { id: 4, name: '004_delivery.sql' },
      { id: 5, name: '005_cached_tokens.sql' },
      { id: 6, name: '006_feedback.sql' },
      { id: 7, name: '007_slack_native.sql' },
      { id: 8, name: '008_steering.sql' },
      { id: 9, name: '009_plan_review.sql' },
      { id: 10, name: '010_admission.sql' },
      { id: 11, name: '011_checkpoint_backend_neutral.sql' },
      { id: 12, name: '012_hosted_searches.sql' },
      { id: 13, name: '013_source_store.sql' },
      { id: 14, name: '014_report_answers.sql' },
      { id: 15, name: '015_report_search.sql' },
      { id: 16, name: '016_reuse_offers.sql' },
      { id: 17, name: '017_agent_sessions.sql' },
      { id: 18, name: '018_interrupted.sql' },
      { id: 19, name: '019_reuse_offer_tokens.sql' },
      { id: 20, name: '020_spend_holds.sql' },
      { id: 21, name: '021_file_reads.sql' },
      { id: 22, name: '022_paid_calls.sql' },
      { id: 23, name: '023_schedules.sql' },
      { id: 24, name: '024_schedule_options.sql' },
      { id: 25, name: '025_schedule_guards.sql' },
      { id: 26, name: '026_audit_events.sql' },
      { id: 27, name: '027_channel_policies.sql' },
      { id: 28, name: '028_report_exports.sql' },
    ]);
    const tables = await db.pool.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'audit_events',
      'channel_policies',
      'checkpoints',
      'file_reads',
      'kb_documents',
      'kb_passages',
      'paid_calls',
      'processed_events',
      'repeat_offers',
      'report_answers',
      'report_exports',
      'reuse_offers',
      'schedule_refusals',
      'schedules',
      'schema_migrations',
      'session_events',
      'session_feedback',
      'session_source_passages',
      'session_sources',
      'session_steering',
      'session_usage',
      'sessions',
      'slack_messages',
      'slack_outbox',
      'spend_holds',
    ]);
  });
});

describe('a database already migrated', () => {
  it('is told by one read, and a migration added since is applied (and only it)', async () => {
    const db = await emptyPostgres();
    opened.push(db);
    await migrate(db.pool, MIGRATIONS_DIR);
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    writeFileSync(join(dir, '999_added.sql'), 'CREATE TABLE added_since (id int);');
    const queries: string[] = [];
    const query = db.pool.query.bind(db.pool);
    const spied = Object.assign(Object.create(db.pool), {
      query: (text: string, ...rest: unknown[]) => {
        queries.push(text);
        return (query as (t: string, ...r: unknown[]) => unknown)(text, ...rest);
      },
    });
    expect((await migrate(spied, MIGRATIONS_DIR)).applied).toEqual([]);
    expect(queries).toEqual(['SELECT id FROM schema_migrations']);
    expect((await migrate(db.pool, dir)).applied).toEqual(['999_added.sql']);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM added_since')).rows).toEqual([{ n: 0 }]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('concurrent migration on real Postgres', () => {
  it('lets only one of two processes apply each migration', async () => {
    const a = await emptyPostgres();
    opened.push(a);
    const { openDatabase } = await import('../../src/store/database.js');
    const b = await openDatabase({ url: a.url, dataDir: '' });
    opened.push(b);
    const results = await Promise.all([migrate(a.pool, MIGRATIONS_DIR), migrate(b.pool, MIGRATIONS_DIR)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 28]);
  });
});
