import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import type { ReportAnswer, ReportQuestions } from '../../src/ports/report-questions.js';
import { addModelUsage, emptyUsage } from '../../src/ports/usage.js';
import { SpendGate } from '../../src/sessions/admission.js';
import { AnswerStore } from '../../src/sessions/records/answer-store.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import { SpendStore } from '../../src/sessions/records/spend-store.js';
import { ReportAsking } from '../../src/sessions/report-asking.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(async () => db.close());

const CALL_USD = 0.15;

/** A finished report in team `team`, and spending already done there today. */
async function reportIn(team: string, spentUsd: number): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO sessions (id, origin, team_id, channel_id, thread_ts, requester, question, status, report, cost_usd, finished_at)
     VALUES ($1, 'slack', $2, 'C1', $3, 'UANN', 'How do tides work?', 'done', $4, $5, now())`,
    [
      id,
      team,
      `${Date.now()}.000001`,
      JSON.stringify({
        markdown: '## Tides\n\nThe moon [1].',
        sources: [{ n: 1, kind: 'web', key: 'k', title: 't', snippet: '' }],
        partial: null,
      }),
      spentUsd,
    ],
  );
  return id;
}

/**
 * Answers after a moment, each costing one call's price; `unusable` answers are paid for too.
 * Comparisons cost a tenth of that: questions naming the same energy source are the same.
 */
function questions(kind: 'answered' | 'unusable', compared: string[] = []): ReportQuestions {
  return {
    maxCostUsd: async () => CALL_USD,
    maxCompareCostUsd: async () => CALL_USD / 10,
    async compare(earlier, asked) {
      compared.push(asked);
      if (asked.includes('offline')) throw new Error('the model server is unreachable');
      const usage = emptyUsage();
      addModelUsage(usage, 'same_question', 'm', { inputTokens: 300, outputTokens: 10 });
      const source = (q: string) => /solar|wind/.exec(q)?.[0];
      return { same: source(earlier) === source(asked), usage, costUsd: CALL_USD / 10 };
    },
    async answer(): Promise<ReportAnswer> {
      await new Promise((r) => setTimeout(r, 100));
      const usage = emptyUsage();
      addModelUsage(usage, 'report_question', 'm', { inputTokens: 1000, outputTokens: 100 });
      return kind === 'answered'
        ? { kind, markdown: 'The moon [1].', sources: [], usage, costUsd: CALL_USD }
        : {
            kind,
            sentence: "The model's answer could not be used (not JSON): ask again.",
            usage,
            costUsd: CALL_USD,
          };
    },
  };
}

async function askAtOnce(team: string, kind: 'answered' | 'unusable', people: number) {
  const cap = 4.65;
  const sessionId = await reportIn(team, cap - 0.6);
  const sessions = new SessionStore(db.pool);
  const asking = new ReportAsking({
    sessions,
    answers: new AnswerStore(db.pool, 24),
    questions: questions(kind),
    gate: new SpendGate(db.pool, { workspaceDailyUsd: cap }),
    log: silentLogger,
  });
  const row = (await sessions.get(sessionId))!;
  const outcomes = await Promise.all(
    Array.from({ length: people }, (_, i) =>
      asking.ask(row, 'Why twice a day?', { userId: `U${i}`, teamId: team }),
    ),
  );
  const spend = await new SpendStore(db.pool).since({ teamId: team }, 'day');
  return { cap, outcomes, spend };
}

describe('asking a report under the spending caps', () => {
  it('lets 30 people asking at once spend no more than the cap leaves, plus at most one call', async () => {
    const { cap, outcomes, spend } = await askAtOnce('TASK1', 'answered', 30);
    const answered = outcomes.filter((o) => o.kind === 'answered').length;
    // $0.60 left at $0.15 a call: three answers fit (a fourth would leave nothing, which the gate refuses).
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(answered).toBeLessThanOrEqual(4);
    expect(spend.costUsd).toBeLessThanOrEqual(cap + CALL_USD + 1e-9);
    // Every hold is released once its cost is recorded.
    expect(spend.reservedUsd).toBe(0);
    const refused = outcomes.find((o) => o.kind === 'refused');
    expect(refused && 'sentence' in refused ? refused.sentence : '').toMatch(
      /^This workspace has used \$4\.\d\d .*of the \$4\.65 research budget for today, and a question to a report costs at least about \$0\.15/,
    );
  });

  it('records what an unusable answer cost, so the caps are reached all the same', async () => {
    const { cap, outcomes, spend } = await askAtOnce('TASK2', 'unusable', 30);
    const paid = outcomes.filter(
      (o) => o.kind === 'refused' && o.sentence.startsWith("The model's answer"),
    ).length;
    expect(paid).toBeGreaterThanOrEqual(3);
    expect(paid).toBeLessThanOrEqual(4);
    expect(spend.costUsd).toBeCloseTo(cap - 0.6 + paid * CALL_USD, 6);
    expect(spend.costUsd).toBeLessThanOrEqual(cap + CALL_USD + 1e-9);
  });

  it('confirms a reuse candidate with one paid call within the caps, and none when the words are the same', async () => {
    const team = 'TASK3';
    const compared: string[] = [];
    const asking = new ReportAsking({
      sessions: new SessionStore(db.pool),
      answers: new AnswerStore(db.pool, 24),
      questions: questions('answered', compared),
      gate: new SpendGate(db.pool, { workspaceDailyUsd: 1 }),
      log: silentLogger,
    });
    const earlier = 'Which countries have the highest solar power capacity?';
    const ann = { userId: 'UANN', teamId: team };
    expect(
      await asking.sameQuestion(earlier, 'Which countries have the highest wind power capacity?', ann),
    ).toBe(false);
    expect(await asking.sameQuestion(earlier, 'Highest solar power capacity: which countries?', ann)).toBe(
      true,
    );
    expect(
      await asking.sameQuestion(earlier, 'which countries have the highest SOLAR power capacity', ann),
    ).toBe(true);
    // A model that cannot be reached offers nothing (the question is researched); what it cost is still recorded.
    expect(await asking.sameQuestion(earlier, 'Solar capacity, offline?', ann)).toBe(false);
    expect(compared).toHaveLength(3);
    const spend = await new SpendStore(db.pool).since({ teamId: team }, 'day');
    expect(spend.costUsd).toBeCloseTo(2 * (CALL_USD / 10), 9);
    expect(spend.reservedUsd).toBe(0);
    // With the caps spent, nothing is called and nothing offered.
    await reportIn(team, 1);
    expect(await asking.sameQuestion(earlier, 'Solar capacity by country?', ann)).toBe(false);
    expect(compared).toHaveLength(3);
  });
});
