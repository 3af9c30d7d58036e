import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { silentLogger } from '../src/ports/logger.js';
import { runService } from '../src/run-service.js';
import { render } from './fakes/fake-slack-server.js';
import { RuleLlm } from './fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from './helpers/slack-harness.js';
import { FORM, signedPost, slashCommand } from './helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('deep-research worker', () => {
  it('shows expired clarifications in their Slack thread, as serve does', async () => {
    h = await slackHarness(new RuleLlm({ questions: '1. Which region?' }), { CLARIFY_TIMEOUT_HOURS: '1' });
    const app = await h.start();
    await signedPost(app.url, slashCommand('How do tides work?', 'UANN', h.slack.responseUrl('c')), FORM);
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'clarifying', 15_000, 'questions');
    await app.stop();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await client.connect();
    await client.query("UPDATE sessions SET updated_at = now() - interval '2 hours'");
    await client.end();

    // Only a worker runs now (no Slack app): its maintenance expires the session and says so in the thread.
    const stop = new AbortController();
    const done = runService(loadConfig(h.env), silentLogger, stop.signal, { mode: 'worker', pollMs: 50 });
    const root = () => h!.slack.messages.find((m) => !m.threadTs);
    await eventually(
      () => root() && render(root()!).includes('*Expired*'),
      15_000,
      'the root to say expired',
    );
    stop.abort();
    expect(await done).toBe(0);
    expect((await storedSessions(h))[0]!.status).toBe('expired');
  }, 60_000);
});
