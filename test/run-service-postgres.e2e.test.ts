import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleLlm } from './fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from './helpers/slack-harness.js';
import { FORM, signedPost, slashCommand } from './helpers/slack-requests.js';
import { type ThrowawayCluster, throwawayCluster } from './helpers/throwaway-cluster.js';

let cluster: ThrowawayCluster;
beforeAll(async () => {
  cluster = await throwawayCluster();
});
afterAll(() => cluster?.destroy());

async function healthz(url: string): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const res = await fetch(url.replace('/slack/events', '/healthz'));
  await res.text();
  return { status: res.status, ms: Date.now() - started };
}

describe('serve while Postgres fails', () => {
  let h: SlackHarness | undefined;
  afterAll(async () => h?.close());

  it('stays up through a restart mid-session, answers 503 meanwhile, then finishes with one report', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 3, delayMs: 400 }), {
      DATABASE_URL: cluster.url,
      LEASE_SECONDS: '5',
      LOG_LEVEL: process.env.SHOW_LOGS ? 'info' : 'silent',
    });
    const app = await h.start();
    expect(
      (
        await signedPost(
          app.url,
          slashCommand('How do tides work?', 'UANN', h.slack.responseUrl('cmd')),
          FORM,
        )
      ).status,
    ).toBe(200);
    await eventually(
      () => h!.slack.messages.find((m) => m.text.includes('Research plan')),
      15_000,
      'the plan (research running)',
    );

    cluster.stop();
    const down = await eventually(
      async () => {
        const r = await healthz(app.url);
        return r.status === 503 ? r : null;
      },
      30_000,
      '/healthz 503',
    );
    // Its own deadline is 1.5 s; a busy 2-core machine may add to that, but never minutes.
    expect(down.ms).toBeLessThan(5000);
    // The model keeps answering; the session waits at its next checkpoint for the database.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(h.slack.files.find((f) => f.title)).toBeUndefined();
    cluster.start();

    // After the restart: reconnects back off, the lease may lapse and pass to this process again; generous bounds.
    const report = await eventually(() => h!.slack.files.find((f) => f.title), 150_000, 'the report file');
    expect(report.content).toContain('Finding from Topic 3');
    await eventually(async () => (await healthz(app.url)).status === 200, 30_000, '/healthz 200 again');
    const sessions = await storedSessions(h);
    expect(sessions.map((s) => s.status)).toEqual(['done']);
    expect(h.slack.files.filter((f) => f.title)).toHaveLength(1);
  }, 300_000);

  it('answers /healthz within 2 s while the database is frozen', async () => {
    const app = await h!.start();
    expect((await healthz(app.url)).status).toBe(200);
    cluster.freeze();
    try {
      const frozen = await healthz(app.url);
      expect(frozen.status).toBe(503);
      expect(frozen.ms).toBeLessThan(2500);
    } finally {
      cluster.thaw();
    }
    await eventually(async () => (await healthz(app.url)).status === 200, 30_000, '/healthz 200 after thaw');
  }, 60_000);
});
