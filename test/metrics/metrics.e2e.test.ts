import { afterEach, describe, expect, it } from 'vitest';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `name{labels} value` lines of a Prometheus text exposition, by series. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('/metrics', () => {
  it('exposes sessions, queue, model tokens and cost by phase, Slack calls and 429s, delivery lag, page-read and search failures after sessions', async () => {
    // Pages are served on loopback but private addresses are refused: every page read fails, as a guard would.
    h = await slackHarness(
      new RuleLlm({ rounds: 1, readPages: true }),
      { ALLOW_PRIVATE_URLS: 'false' },
      { localPages: true },
    );
    const app = await h.start();
    h.slack.rateLimit('chat.postMessage', 1, 1);
    const mention = (text: string, ts: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${text}`, ts }),
        JSON_TYPE,
      );
    await mention('How do tides work?', '1800000950.000001');
    await eventually(
      async () => (await storedSessions(h!)).some((s) => s.status === 'done'),
      60_000,
      'research done',
    );
    const response = await fetch(app.url.replace('/slack/events', '/metrics'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const m = samples(text);
    expect(m.get('deep_research_sessions{status="done"}')).toBe(1);
    expect(m.get('deep_research_active_sessions')).toBe(0);
    expect(m.get('deep_research_queue_depth')).toBe(0);
    expect(m.get('deep_research_database_up')).toBe(1);
    expect(m.has('deep_research_slack_outbox_pending')).toBe(true);
    for (const phase of ['clarify', 'plan', 'orchestrator', 'agent', 'final_report']) {
      expect(m.get(`deep_research_model_calls_total{phase="${phase}",model="gpt-4.1"}`)).toBeGreaterThan(0);
      expect(
        m.get(`deep_research_model_tokens_total{phase="${phase}",model="gpt-4.1",kind="input"}`),
      ).toBeGreaterThan(0);
      expect(m.get(`deep_research_model_cost_usd_total{phase="${phase}",model="gpt-4.1"}`)).toBeGreaterThan(
        0,
      );
    }
    expect(
      m.get('deep_research_slack_api_calls_total{method="chat.postMessage",outcome="ok"}'),
    ).toBeGreaterThan(1);
    expect(
      m.get('deep_research_slack_api_calls_total{method="chat.postMessage",outcome="rate_limited"}'),
    ).toBe(1);
    expect(m.get('deep_research_slack_delivery_lag_seconds_count{op="post"}')).toBeGreaterThan(0);
    expect(m.get('deep_research_tool_failures_total{tool="open_url",reason="refused"}')).toBeGreaterThan(0);
    // The report's citations were checked (against the search snippets, as no page could be read).
    expect(m.get('deep_research_citations_total{verdict="supported"}')).toBe(1);
    expect(m.get('deep_research_citations_total{verdict="removed"}')).toBe(0);
    expect(text).not.toContain('xoxb-');

    // Search goes down: the next session cannot search, and /metrics says so by provider error.
    await h.search.close();
    await mention('Why is the sky blue?', '1800000950.000002');
    await eventually(
      async () => (await storedSessions(h!)).some((s) => s.status === 'failed'),
      60_000,
      'the second research failed',
    );
    const after = samples(await (await fetch(app.url.replace('/slack/events', '/metrics'))).text());
    const searchFailures = [...after].filter(([series]) =>
      series.startsWith('deep_research_tool_failures_total{tool="web_search"'),
    );
    expect(searchFailures.length).toBeGreaterThan(0);
    expect(after.get('deep_research_sessions{status="failed"}')).toBe(1);
  }, 120_000);
});
