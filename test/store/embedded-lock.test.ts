import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/ports/errors.js';
import { openDatabase } from '../../src/store/database.js';

describe('the embedded database', () => {
  it('belongs to one process at a time: a short command joins it, a second opener is told who has it, and a lock left by a dead process is taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-lock-'));
    const first = await openDatabase({ dataDir: dir, command: 'worker' });
    const refused = await openDatabase({ dataDir: dir }).catch((e) => e);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused.message).toBe(
      `The embedded database in ${dir} is open in another deep-research process (deep-research worker, PID ${process.pid}); only short commands (cancel, sessions, usage, find, ask --background) can share it. Wait for it to end or stop it, or set DATABASE_URL to a Postgres database to run several at once.`,
    );
    // The first is untouched by the refusal.
    expect((await first.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

    // Once the first shares it (migrated), a short command joins it: what it writes, the first reads; its
    // leaving closes nothing of the first's.
    first.share!();
    const joined = await openDatabase({ dataDir: dir, join: true });
    expect(joined.embedded).toBe(true);
    await joined.pool.query('CREATE TABLE shared (note text)');
    await joined.pool.query("INSERT INTO shared VALUES ('from the second process')");
    await joined.close();
    expect((await first.pool.query('SELECT note FROM shared')).rows).toEqual([
      { note: 'from the second process' },
    ]);
    await first.close();

    // Freed on close; and a lock whose process is gone (killed outright) does not keep anyone out.
    writeFileSync(join(dir, 'pglite.lock'), JSON.stringify({ pid: 2 ** 22 + 7, host: hostname() }));
    const next = await openDatabase({ dataDir: dir });
    expect((await next.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await next.close();
  }, 60_000);
});

describe('a short command joined to the embedded database', () => {
  it('says in one line, when the process that had it open has ended, to run the command again', async () => {
    const { databaseStartError } = await import('../../src/store/database-errors.js');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:40123'), {
      code: 'ECONNREFUSED',
    });
    expect(databaseStartError(refused, undefined)?.message).toBe(
      'The embedded database could not be reached (ECONNREFUSED): the process that had it open has probably just ended; run the command again.',
    );
  });
});
