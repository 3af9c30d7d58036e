import type pg from 'pg';
import type { Source } from '../../ports/report.js';
import type { Usage } from '../../ports/research.js';
import { insertIntentsSql, intentsJson, type OutboxIntent } from './outbox-intent.js';

export interface NewAnswer {
  sessionId: string;
  asker: string;
  teamId: string | null;
  question: string;
  /** Null: the report and its sources did not answer it. */
  answer: string | null;
  sources: Source[];
  usage: Usage;
  costUsd: number | null;
}

export interface StoredAnswer {
  id: number;
  asker: string;
  question: string;
  answer: string | null;
  sources: Source[];
  at: Date;
}

/** Questions readers asked of a report, with their answers; each stored with the thread writes that show it. */
export class AnswerStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly deliveryDeadlineHours: number,
  ) {}

  /** Stores the answer and, in the same transaction, the writes that show it (built from its id). */
  async save(answer: NewAnswer, intents: (id: number) => OutboxIntent[] = () => []): Promise<number> {
    const tokens = (kind: 'inputTokens' | 'outputTokens') =>
      answer.usage.models.reduce((sum, m) => sum + m[kind], 0);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        `INSERT INTO report_answers
           (session_id, asker, team_id, question, answer, sources, input_tokens, output_tokens, cost_usd)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          answer.sessionId,
          answer.asker,
          answer.teamId,
          answer.question,
          answer.answer,
          JSON.stringify(answer.sources),
          tokens('inputTokens'),
          tokens('outputTokens'),
          answer.costUsd,
        ],
      );
      const id = Number(rows[0].id);
      const writes = intents(id);
      if (writes.length)
        await client.query(`WITH s AS (SELECT $1::uuid AS id) ${insertIntentsSql('s', '$2', '$3')}`, [
          answer.sessionId,
          intentsJson(writes),
          this.deliveryDeadlineHours,
        ]);
      await client.query('COMMIT');
      return id;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async list(sessionId: string): Promise<StoredAnswer[]> {
    const { rows } = await this.pool.query(
      'SELECT id, asker, question, answer, sources, created_at FROM report_answers WHERE session_id = $1 ORDER BY id',
      [sessionId],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      asker: r.asker,
      question: r.question,
      answer: r.answer,
      sources: r.sources,
      at: new Date(r.created_at),
    }));
  }
}
