import { afterEach, describe, expect, it } from 'vitest';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000700.${String(++tsCounter).padStart(6, '0')}`;

describe('daily spending caps', () => {
  it('stops a run that crosses the cap with a labelled partial report, refuses the next with the figures, and reports usage', async () => {
    // Each model call of the rule model costs $0.06 at this price; the rough estimate's low end is $0.40.
    h = await slackHarness(new RuleLlm({ rounds: 6 }), {
      MODEL_PRICES: '{"gpt-4.1":{"input":1000,"output":1000}}',
      TOKEN_BUDGET: '20000',
      USER_DAILY_BUDGET_USD: '0.5',
    });
    const app = await h.start();
    const ts = userTs();
    const ask = (text: string, at: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel: 'C1', user: 'UANN', text, ts: at }),
        JSON_TYPE,
      );
    await ask('<@UBOT> History of the transistor', ts);
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
    const agents = h.model.requests.filter((r) => r.tools?.some((t) => t.function.name === 'research_agent'));
    expect(agents.length).toBeLessThan(6);
    const [canvas] = h.slack.canvases;
    expect(canvas!.markdown).toContain("research stopped early because today's spending cap was reached");

    const second = userTs();
    await ask('<@UBOT> And the integrated circuit?', second);
    const refused = await eventually(
      () =>
        h!.slack.calls.find(
          (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('budget'),
        ),
      10_000,
      'refusal',
    );
    expect(String(refused.args.text)).toMatch(
      /^You have used \$0\.\d\d of the \$0\.50 research budget for today, and a research costs at least about \$0\.\d\d; try again tomorrow \(UTC\), or ask an admin to raise USER_DAILY_BUDGET_USD\.$/,
    );
    expect(await storedSessions(h)).toHaveLength(1);

    await signedPost(app.url, slashCommand('usage', 'UANN', h.slack.responseUrl('usage')), FORM);
    const usage = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/usage')),
      5000,
      'usage',
    );
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query(
      `SELECT (s.report->>'costUsd')::float8 AS cost, sum(u.input_tokens + u.output_tokens)::int AS tokens
       FROM sessions s JOIN session_usage u ON u.session_id = s.id GROUP BY s.id`,
    );
    await db.end();
    const spent = `1 session, ${Math.round(rows[0].tokens / 1000)}k tokens, $${rows[0].cost.toFixed(2)}`;
    expect(usage.body.text).toBe(
      `Your research: today ${spent} of $0.50 a day; this month ${spent}.\nThis workspace: today ${spent}; this month ${spent}.`,
    );
  }, 60_000);
});
