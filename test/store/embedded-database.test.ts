import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const isRoot = process.getuid?.() === 0;

describe('the embedded database', () => {
  it('is its owner’s alone: the folder 0700 and the lock 0600 whatever was there, a Unix socket and no TCP port, every file closed to others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-own-'));
    // As a careless umask (or an older version) left them.
    chmodSync(dir, 0o777);
    mkdirSync(join(dir, 'pglite'), { mode: 0o777 });
    chmodSync(join(dir, 'pglite'), 0o777);
    writeFileSync(join(dir, 'pglite', 'left-over'), 'x', { mode: 0o666 });
    chmodSync(join(dir, 'pglite', 'left-over'), 0o666);
    const db = await openDatabase({ dataDir: dir });
    try {
      db.share!();
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'pglite'))).toBe(0o700);
      expect(mode(join(dir, 'pglite', 'left-over'))).toBe(0o600);
      expect(mode(join(dir, 'pglite.lock'))).toBe(0o600);
      expect(mode(join(dir, '.s.PGSQL.5432'))).toBe(0o600);
      const lock = JSON.parse(readFileSync(join(dir, 'pglite.lock'), 'utf8'));
      expect(lock).toMatchObject({ socket: dir });
      expect(lock.port).toBeUndefined();
      expect(db.url).toBe(
        `postgres://postgres@/postgres?host=${encodeURIComponent(dir)}&port=5432&sslmode=disable`,
      );
      expect((await db.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
    // What PGlite wrote while open is closed to others once it is closed.
    const { readdirSync } = await import('node:fs');
    const open = readdirSync(join(dir, 'pglite'), { recursive: true, withFileTypes: true }).filter(
      (e) => mode(join(e.parentPath, e.name)) & 0o077,
    );
    expect(open).toEqual([]);
  }, 60_000);

  it.skipIf(!isRoot)(
    'refuses another local user (nobody) at the socket',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pglite-other-'));
      const db = await openDatabase({ dataDir: dir });
      try {
        const probe = `require('net').connect(${JSON.stringify(join(dir, '.s.PGSQL.5432'))})
        .on('connect', () => { console.log('connected'); process.exit(0); })
        .on('error', (e) => { console.log(e.code); process.exit(0); });`;
        const asNobody = (...args: string[]) =>
          spawnSync('runuser', ['-u', 'nobody', '--', ...args], { encoding: 'utf8', timeout: 20_000 });
        // A Node that user may run (this one may sit under root's own folders, as npx's does).
        const node = [process.execPath, '/usr/local/bin/node', '/usr/bin/node'].find(
          (path) => asNobody(path, '-e', '').status === 0,
        );
        expect(node, 'a Node binary the nobody user can run').toBeDefined();
        expect(asNobody(node!, '-e', probe).stdout.trim()).toBe('EACCES');
        // The owner's user still reaches it.
        expect((await db.pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
      } finally {
        await db.close();
      }
    },
    60_000,
  );

  it('keeps its owner’s event loop free while a joined process runs a long statement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-stall-'));
    const owner = await openDatabase({ dataDir: dir });
    owner.share!();
    const joined = await openDatabase({ dataDir: dir, join: true });
    try {
      const long = joined.pool.query('SELECT pg_sleep(4)');
      // Wait until the statement is running in the database's thread.
      await new Promise((r) => setTimeout(r, 300));
      const asked = performance.now();
      const late = await new Promise<number>((resolve) =>
        setTimeout(() => resolve(performance.now() - asked), 50),
      );
      // A timer of 50 ms fires long before the 4 s statement ends: nothing held this event loop.
      expect(late).toBeLessThan(2000);
      await long;
    } finally {
      await joined.close();
      await owner.close();
    }
  }, 60_000);
});
