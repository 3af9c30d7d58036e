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
      TOKEN_BUDGET: '4000',
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

  it('50 /research commands from one person at once, over two processes, start only MAX_SESSIONS_PER_USER; the rest are told why and leave no root behind', async () => {
    // A new install's plan review wait: admitted sessions stay unfinished for the whole test.
    h = await slackHarness(new RuleLlm(), { MAX_SESSIONS_PER_USER: '2', PLAN_REVIEW_SECONDS: '60' });
    // Two `serve` processes behind a load balancer: one process takes a person's commands in turn,
    // two decide at the same moment, which only admission's lock keeps apart.
    const apps = [await h.start(), await h.start()];
    const replies = Array.from({ length: 50 }, (_, i) => h!.slack.responseUrl(`burst-${i}`));
    const answers = await Promise.all(
      replies.map((url, i) =>
        signedPost(apps[i % 2]!.url, slashCommand('Tidal power in 2025?', 'UBURST', url), FORM),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const refusals = await eventually(
      () => {
        const said = h!.slack.responses.filter((r) => r.url.includes('/burst-'));
        return said.length >= 48 ? said : undefined;
      },
      30_000,
      '48 refusals',
    );
    expect(refusals).toHaveLength(48);
    for (const r of refusals)
      expect(r.body.text).toBe(
        'You already have 2 research sessions running (the limit is 2): wait for one to finish, or cancel one with `/research cancel`.',
      );
    expect(await storedSessions(h)).toHaveLength(2);
    const roots = h.slack.messages.filter((m) => m.channel === 'C1' && !m.threadTs && !m.deleted);
    expect(roots).toHaveLength(2);
  }, 90_000);

  it('20 people mentioning the bot at once stay within the workspace cap: reservations are counted, refusals have the figures', async () => {
    // Each model call costs $0.06 here; the settings estimate is $0.40-$2.60 a run (10-65% of the token
    // budget), so a $3 cap fits one reservation and refuses the rest until it finishes.
    h = await slackHarness(new RuleLlm({ rounds: 6 }), {
      MODEL_PRICES: '{"gpt-4.1":{"input":1000,"output":1000}}',
      TOKEN_BUDGET: '4000',
      WORKSPACE_DAILY_BUDGET_USD: '3',
    });
    const app = await h.start();
    const asked = Array.from({ length: 20 }, (_, i) => ({ user: `UP${i}`, ts: userTs(), channel: `CP${i}` }));
    await Promise.all(
      asked.map((a) =>
        signedPost(
          app.url,
          eventCallback({
            type: 'app_mention',
            channel: a.channel,
            user: a.user,
            text: '<@UBOT> History of the transistor',
            ts: a.ts,
          }),
          JSON_TYPE,
        ),
      ),
    );
    const refused = await eventually(
      () => {
        const said = h!.slack.calls.filter(
          (c) => c.method === 'chat.postEphemeral' && String(c.args.text).includes('research budget'),
        );
        return said.length >= 19 ? said : undefined;
      },
      30_000,
      '19 refusals',
    );
    expect(String(refused[0]!.args.text)).toMatch(
      /^This workspace has used \$0\.00 \(and research still running holds \$2\.60\) of the \$3\.00 research budget for today, and a research costs at least about \$0\.40; try again tomorrow \(UTC\), or ask an admin to raise WORKSPACE_DAILY_BUDGET_USD\.$/,
    );
    const started = await storedSessions(h);
    expect(started).toHaveLength(1);
    const ran = asked.find((a) => h!.slack.reactionsOn(a.channel, a.ts).includes('eyes'))!;
    await eventually(
      () => h!.slack.reactionsOn(ran.channel, ran.ts).includes('white_check_mark'),
      60_000,
      'done',
    );
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('SELECT sum(cost_usd)::float8 AS spent FROM sessions');
    await db.end();
    // The cap plus at most one run's overshoot: the step during which it crossed its limit (one model call).
    expect(rows[0].spent).toBeLessThanOrEqual(3 + 0.06 * 3);
  }, 120_000);

  it('twenty mentions in one thread at once start one research and tell the rest it is under way', async () => {
    h = await slackHarness(new RuleLlm(), { PLAN_REVIEW_SECONDS: '60', MAX_SESSIONS_PER_USER: '50' });
    const app = await h.start();
    const root = userTs();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signedPost(
          app.url,
          eventCallback({
            type: 'app_mention',
            channel: 'C1',
            user: `UT${i}`,
            text: '<@UBOT> History of the transistor',
            ts: userTs(),
            thread_ts: root,
          }),
          JSON_TYPE,
        ),
      ),
    );
    const told = await eventually(
      () => {
        const said = h!.slack.calls.filter((c) => c.method === 'chat.postEphemeral');
        return said.length >= 19 ? said : undefined;
      },
      30_000,
      '19 replies',
    );
    expect(new Set(told.map((c) => String(c.args.text)))).toEqual(
      new Set(['Research is already under way in this thread: wait for its report, or cancel it first.']),
    );
    expect(await storedSessions(h)).toHaveLength(1);
  }, 60_000);
});
