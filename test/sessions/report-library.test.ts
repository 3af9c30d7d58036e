import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import { ReportLibrary } from '../../src/sessions/report-library.js';
import type { Database } from '../../src/store/database.js';
import { realPostgres } from '../helpers/postgres.js';

let db: Database;
beforeAll(async () => {
  db = await realPostgres();
});
afterAll(async () => db.close());

async function report(channel: string, requester: string, question: string, daysAgo = 0): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `INSERT INTO sessions (id, origin, team_id, channel_id, thread_ts, requester, question, status, report, created_at)
     VALUES ($1, 'slack', 'T9', $2, $3, $4, $5, 'done', $6, now() - make_interval(days => $7))`,
    [
      id,
      channel,
      `${Date.now()}.${Math.floor(Math.random() * 1e6)}`,
      requester,
      question,
      JSON.stringify({ markdown: `## ${question}\n\nFindings [1].`, sources: [{ n: 1 }], partial: null }),
      daysAgo,
    ],
  );
  return id;
}

describe('the report library', () => {
  it('searches nothing for control characters and reads an absurd page as the first', async () => {
    const library = new ReportLibrary({ db: db.pool, log: silentLogger });
    await report('C7', 'UANN', 'How do avalanches start?');
    const member = async () => true;
    const viewer = { userId: 'UANN', teamId: 'T9' };
    // A NUL in the search box (Postgres refuses it in text) finds what the words around it find.
    expect((await library.find('avalanches\u0000', viewer, member)).map((r) => r.question)).toEqual([
      'How do avalanches start?',
    ]);
    for (const page of [1e300, -1, Number.NaN, 2.5]) {
      const { reports } = await library.page('avalanches', viewer, member, page, 5);
      expect(
        reports.map((r) => r.question),
        String(page),
      ).toEqual(['How do avalanches start?']);
    }
  });

  it("hides a report whose channel membership cannot be looked up, and a DM's from anyone but its requester", async () => {
    const library = new ReportLibrary({ db: db.pool, log: silentLogger });
    await report('C9', 'UANN', 'How do glaciers move?');
    await report('DANN', 'UANN', 'How fast do glaciers melt?');
    const down = async () => {
      throw new Error('Slack is down');
    };
    expect(await library.find('glaciers', { userId: 'UBOB', teamId: 'T9' }, down)).toEqual([]);
    const member = async () => true;
    expect(
      (await library.find('glaciers', { userId: 'UBOB', teamId: 'T9' }, member)).map((r) => r.question),
    ).toEqual(['How do glaciers move?']);
    expect(
      (await library.find('glaciers', { userId: 'UANN', teamId: 'T9' }, member))
        .map((r) => r.question)
        .sort(),
    ).toEqual(['How do glaciers move?', 'How fast do glaciers melt?']);
    // Another workspace's reports are never found.
    expect(await library.find('glaciers', { userId: 'UANN', teamId: 'T8' }, member)).toEqual([]);
  });

  it('offers a repeated question the closest recent report, not one older than the reuse window', async () => {
    const library = new ReportLibrary({ db: db.pool, log: silentLogger });
    await report('C9', 'UANN', 'Which volcanoes erupted in Iceland this year?', 3);
    await report('C9', 'UANN', 'How do coral reefs recover after bleaching?', 45);
    const member = async () => true;
    const viewer = { userId: 'UBOB', teamId: 'T9' };
    expect(
      await library.closest('What volcanoes erupted in Iceland this year?', viewer, member, 30),
    ).toMatchObject({
      question: 'Which volcanoes erupted in Iceland this year?',
    });
    expect(
      await library.closest('How do coral reefs recover after bleaching?', viewer, member, 30),
    ).toBeNull();
    expect(await library.closest('How do bees find flowers?', viewer, member, 30)).toBeNull();
  });
});
