import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { KeptPassage, SourceText, SourceTexts, StoredSourceText } from '../ports/source-texts.js';
import { splitPassages } from '../search/knowledge/split-passages.js';
import { anyWords, anyWordTsquery } from './any-word-query.js';

/** The most of one source's text kept (characters): a long report or a PDF's first pages. */
export const SOURCE_TEXT_CAP = 100_000;

/**
 * The source store on Postgres (session_sources, and its passages for full-text
 * search). A source shown again with new text (another passage of a document)
 * has it added, up to the cap; the passages are rebuilt in the same statement.
 */
export class SourceTextStore implements SourceTexts {
  constructor(private readonly pool: pg.Pool) {}

  async keep(sessionId: string, source: SourceText): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        'SELECT text, n FROM session_sources WHERE session_id = $1 AND key = $2 FOR UPDATE',
        [sessionId, source.key],
      );
      const before: string | undefined = rows[0]?.text;
      if (before?.includes(source.text.trim())) {
        // A file kept before research numbered it (n 0) takes its number when first shown.
        if (rows[0].n === 0 && source.n > 0)
          await client.query('UPDATE session_sources SET n = $3 WHERE session_id = $1 AND key = $2', [
            sessionId,
            source.key,
            source.n,
          ]);
        await client.query('COMMIT');
        return;
      }
      const whole = before ? `${before}\n\n${source.text.trim()}` : source.text.trim();
      const text = whole.slice(0, SOURCE_TEXT_CAP);
      await client.query(
        `INSERT INTO session_sources (session_id, key, n, url, title, content_hash, text, truncated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (session_id, key) DO UPDATE SET text = EXCLUDED.text, content_hash = EXCLUDED.content_hash,
           n = CASE WHEN session_sources.n = 0 THEN EXCLUDED.n ELSE session_sources.n END,
           truncated = EXCLUDED.truncated, fetched_at = now()`,
        [
          sessionId,
          source.key,
          source.n,
          source.url ?? null,
          source.title,
          sha256(text),
          text,
          whole.length > text.length,
        ],
      );
      await client.query('DELETE FROM session_source_passages WHERE session_id = $1 AND key = $2', [
        sessionId,
        source.key,
      ]);
      const passages = splitPassages(source.title, text);
      await client.query(
        `INSERT INTO session_source_passages (session_id, key, ordinal, body)
         SELECT $1, $2, p.ordinal, p.body FROM unnest($3::int[], $4::text[]) AS p(ordinal, body)`,
        [sessionId, source.key, passages.map((_, i) => i), passages.map((p) => p.body)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async find(sessionIds: string[], key: string): Promise<StoredSourceText | null> {
    const { rows } = await this.pool.query(
      `SELECT key, n, url, title, text, fetched_at, truncated FROM session_sources
       WHERE session_id = ANY($1::uuid[]) AND key = $2
       ORDER BY array_position($1::uuid[], session_id) LIMIT 1`,
      [sessionIds, key],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      key: r.key,
      n: r.n,
      ...(r.url ? { url: r.url } : {}),
      title: r.title,
      text: r.text,
      fetchedAt: new Date(r.fetched_at).toISOString(),
      truncated: r.truncated,
    };
  }

  async passages(
    sessionIds: string[],
    text: string,
    limit: number,
    keyPrefix?: string,
  ): Promise<KeptPassage[]> {
    const words = anyWords(text);
    if (words.length === 0) return [];
    const { rows } = await this.pool.query(
      `SELECT p.key, p.body, s.title, s.url FROM session_source_passages p
         JOIN session_sources s USING (session_id, key),
         ${anyWordTsquery(2)} q
       WHERE p.session_id = ANY($1::uuid[]) AND p.tsv @@ q
         AND ($4::text IS NULL OR starts_with(p.key, $4))
       ORDER BY ts_rank_cd(p.tsv, q) DESC, p.key, p.ordinal LIMIT $3`,
      [sessionIds, words, limit, keyPrefix ?? null],
    );
    return rows.map((r) => ({ key: r.key, title: r.title, ...(r.url ? { url: r.url } : {}), body: r.body }));
  }

  /** How many sources a session keeps, and their characters. */
  async sizeOf(sessionId: string): Promise<{ sources: number; chars: number }> {
    const { rows } = await this.pool.query(
      'SELECT count(*)::int AS sources, COALESCE(sum(length(text)), 0)::bigint AS chars FROM session_sources WHERE session_id = $1',
      [sessionId],
    );
    return { sources: rows[0].sources, chars: Number(rows[0].chars) };
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
