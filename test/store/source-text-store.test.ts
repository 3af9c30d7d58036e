import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertRunning } from '../../src/sessions/records/insert-session.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { type Database, openDatabase } from '../../src/store/database.js';
import { SOURCE_TEXT_CAP, SourceTextStore } from '../../src/store/source-text-store.js';
import { embeddedPglite, realPostgres } from '../helpers/postgres.js';
import { testRetention } from '../helpers/session-room.js';

/** A database, and how to open it again as a restarted process would. */
type Reopenable = { db: Database; reopen: () => Promise<Database>; cleanup: () => void };

async function postgres(): Promise<Reopenable> {
  const db = await realPostgres();
  return { db, reopen: () => openDatabase({ url: db.url, dataDir: '' }), cleanup: () => {} };
}

async function pglite(): Promise<Reopenable> {
  const db = await embeddedPglite();
  return { db, reopen: () => openDatabase({ dataDir: db.dataDir }), cleanup: db.cleanup };
}

const page = (text: string) => ({
  key: 'https://a.example/tides',
  n: 1,
  url: 'https://a.example/tides',
  title: 'Tides',
  text,
});

describe.each([
  ['real Postgres', postgres],
  ['embedded PGlite', pglite],
])('the source store on %s', (_name, open) => {
  it('keeps a source’s text with its session, adds new passages once, caps it, and finds its passages by words', async () => {
    const { db, reopen, cleanup } = await open();
    let again: Database | undefined;
    try {
      const id = randomUUID();
      await insertRunning(
        db.pool,
        { id, origin: 'cli', requester: 'ann', question: 'Tides?' },
        { backend: 'agents', sessionId: id },
      );
      const store = new SourceTextStore(db.pool);
      await store.keep(
        id,
        page('Spring tides happen at new and full moon, when the sun and moon pull together.'),
      );
      await store.keep(
        id,
        page('Spring tides happen at new and full moon, when the sun and moon pull together.'),
      );
      await store.keep(id, page('Neap tides come at the quarter moons.'));
      const kept = await store.find([randomUUID(), id], 'https://a.example/tides');
      expect(kept).toMatchObject({ n: 1, title: 'Tides', truncated: false });
      expect(kept!.text).toBe(
        'Spring tides happen at new and full moon, when the sun and moon pull together.\n\nNeap tides come at the quarter moons.',
      );
      expect(await store.passages([id], 'Neap tides come at quarter moons [3].', 5)).toEqual([
        {
          key: 'https://a.example/tides',
          title: 'Tides',
          url: expect.any(String),
          body: expect.stringContaining('Neap tides'),
        },
      ]);
      // Any of the words: a claim never uses exactly its source's words.
      expect(await store.passages([randomUUID(), id], 'Which moons give the neap?', 5)).toHaveLength(1);
      expect(await store.passages([id], "it's [1] ... ; ' \\", 5)).toEqual([]);

      // A 5 MB page is kept up to the cap.
      const huge = `${'The tide tables list high water for every port. '.repeat(110_000)}`;
      expect(huge.length).toBeGreaterThan(5_000_000);
      await store.keep(id, { ...page(huge), key: 'https://b.example/tables', n: 2 });
      const capped = await store.find([id], 'https://b.example/tables');
      expect([capped!.text.length, capped!.truncated]).toEqual([SOURCE_TEXT_CAP, true]);
      expect(await store.sizeOf(id)).toEqual({ sources: 2, chars: SOURCE_TEXT_CAP + kept!.text.length });

      // A restarted process reads what was kept.
      await db.close();
      again = await reopen();
      const restarted = new SourceTextStore(again.pool);
      expect((await restarted.find([id], 'https://a.example/tides'))!.text).toBe(kept!.text);

      // Retention deletes a finished session's sources with it.
      await new SessionLifecycle(again.pool, 24).finish(id, 'done', {}, undefined);
      await again.pool.query("UPDATE sessions SET created_at = now() - interval '100 days' WHERE id = $1", [
        id,
      ]);
      expect(await testRetention(again, 90)).toBe(1);
      expect(await restarted.sizeOf(id)).toEqual({ sources: 0, chars: 0 });
      const { rows } = await again.pool.query('SELECT count(*)::int AS n FROM session_source_passages');
      expect(rows[0].n).toBe(0);
    } finally {
      await again?.close();
      cleanup();
    }
  }, 60_000);
});
