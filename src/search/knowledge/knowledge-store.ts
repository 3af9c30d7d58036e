import type pg from 'pg';
import type { KnowledgeBase, KnowledgeHit } from '../../ports/knowledge-base.js';
import type { Passage } from './split-passages.js';

export type DocumentKind = 'markdown' | 'text' | 'html' | 'pdf';

export interface StoredDocument {
  id: string;
  path: string;
  title: string;
  kind: DocumentKind;
  contentHash: string;
  bytes: number;
  passages: number;
  modifiedAt: Date;
  ingestedAt: Date;
}

export type NewDocument = Omit<StoredDocument, 'id' | 'passages' | 'ingestedAt'>;

interface HitRow {
  document_id: string;
  title: string;
  path: string;
  modified_at: Date;
  heading: string;
  body: string;
}

/**
 * The team knowledge base in Postgres: documents split into passages with a
 * generated `tsvector` and a GIN index. Search takes web-search-style queries
 * ("quoted phrases", -exclusions, or); when every word is required and
 * nothing matches, it retries with any word, ranked.
 */
export class KnowledgeStore implements KnowledgeBase {
  constructor(private readonly pool: pg.Pool) {}

  async hasDocuments(): Promise<boolean> {
    const { rows } = await this.pool.query<{ any: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM kb_documents) AS any',
    );
    return rows[0]!.any;
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<KnowledgeHit[]> {
    let rows = await this.rank(query, options.limit);
    const anyWord = anyWordQuery(query);
    if (rows.length === 0 && anyWord && anyWord !== query) rows = await this.rank(anyWord, options.limit);
    return rows.map((row) => ({
      documentId: row.document_id,
      title: row.title,
      path: row.path,
      text: row.heading && row.heading !== row.title ? `${row.heading}\n\n${row.body}` : row.body,
      updatedAt: row.modified_at.toISOString().slice(0, 10),
    }));
  }

  async findByPath(path: string): Promise<StoredDocument | undefined> {
    const { rows } = await this.pool.query(`${SELECT_DOCUMENTS} WHERE path = $1`, [path]);
    return rows[0] && toDocument(rows[0]);
  }

  /** Inserts or replaces a document and all its passages in one statement, so a reader never sees half of it. */
  async saveDocument(document: NewDocument, passages: Passage[]): Promise<void> {
    await this.pool.query(
      `WITH doc AS (
         INSERT INTO kb_documents (path, title, kind, content_hash, bytes, passages, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (path) DO UPDATE SET
           title = EXCLUDED.title, kind = EXCLUDED.kind, content_hash = EXCLUDED.content_hash,
           bytes = EXCLUDED.bytes, passages = EXCLUDED.passages, modified_at = EXCLUDED.modified_at,
           ingested_at = now()
         RETURNING id
       ), old AS (
         DELETE FROM kb_passages WHERE document_id = (SELECT id FROM doc)
       )
       INSERT INTO kb_passages (document_id, ordinal, heading, body)
       SELECT (SELECT id FROM doc), p.ordinal, p.heading, p.body
       FROM unnest($8::int[], $9::text[], $10::text[]) AS p (ordinal, heading, body)`,
      [
        document.path,
        document.title,
        document.kind,
        document.contentHash,
        document.bytes,
        passages.length,
        document.modifiedAt,
        passages.map((_, i) => i),
        passages.map((p) => p.heading),
        passages.map((p) => p.body),
      ],
    );
  }

  async list(): Promise<StoredDocument[]> {
    const { rows } = await this.pool.query(`${SELECT_DOCUMENTS} ORDER BY path`);
    return rows.map(toDocument);
  }

  /** Documents at `path` or anywhere under it (a folder); `separator` is the platform's path separator. */
  async listUnder(path: string, separator = '/'): Promise<StoredDocument[]> {
    const { rows } = await this.pool.query(
      `${SELECT_DOCUMENTS} WHERE path = $1 OR starts_with(path, $2) ORDER BY path`,
      [path, path.endsWith(separator) ? path : path + separator],
    );
    return rows.map(toDocument);
  }

  async remove(ids: string[]): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM kb_documents WHERE id = ANY($1::uuid[])', [ids]);
    return rowCount ?? 0;
  }

  private async rank(query: string, limit: number): Promise<HitRow[]> {
    const { rows } = await this.pool.query<HitRow>(
      `SELECT d.id AS document_id, d.title, d.path, d.modified_at, p.heading, p.body
       FROM kb_passages p
       JOIN kb_documents d ON d.id = p.document_id,
            websearch_to_tsquery('english', $1) AS q
       WHERE p.tsv @@ q
       ORDER BY ts_rank_cd(p.tsv, q) DESC, d.path, p.ordinal
       LIMIT $2`,
      [query, limit],
    );
    return rows;
  }
}

const SELECT_DOCUMENTS = `SELECT id, path, title, kind, content_hash, bytes, passages, modified_at, ingested_at
  FROM kb_documents`;

function toDocument(row: Record<string, unknown>): StoredDocument {
  return {
    id: row.id as string,
    path: row.path as string,
    title: row.title as string,
    kind: row.kind as DocumentKind,
    contentHash: row.content_hash as string,
    bytes: Number(row.bytes),
    passages: row.passages as number,
    modifiedAt: row.modified_at as Date,
    ingestedAt: row.ingested_at as Date,
  };
}

/** The query's words joined with `or` (websearch syntax), for the second, looser pass. */
function anyWordQuery(query: string): string {
  return query
    .replace(/["()]/g, ' ')
    .split(/\s+/)
    .filter((word) => word && !word.startsWith('-') && word.toLowerCase() !== 'or')
    .join(' or ');
}
