import { afterEach, describe, expect, it } from 'vitest';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import { FORM, JSON_TYPE, signedPost, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the HTTP edge', () => {
  it('answers 400 to signed bodies that are not objects and 401 to signatures from the future, and stays up', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    for (const [body, type] of [
      ['null', JSON_TYPE],
      ['42', JSON_TYPE],
      ['[]', JSON_TYPE],
      ['payload=null', FORM],
      ['payload=%22text%22', FORM],
    ] as const) {
      expect((await signedPost(app.url, body, type)).status, body).toBe(400);
    }
    const command = slashCommand('help', 'UANN', h.slack.responseUrl('c'));
    expect((await signedPost(app.url, command, FORM, { skewSeconds: 6 * 60 })).status).toBe(401);
    expect((await signedPost(app.url, command, FORM, { skewSeconds: -6 * 60 })).status).toBe(401);
    // Still serving, and a well-formed request within the window is answered.
    const ok = await signedPost(app.url, command, FORM, { skewSeconds: 60 });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('/research');
    expect((await fetch(app.url.replace('/slack/events', '/healthz'))).status).toBe(200);
  });

  it('refuses a question with a NUL in a sentence before anything is posted', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    const command = slashCommand('What about\u0000 tides today?', 'UANN', h.slack.responseUrl('nul'));
    expect((await signedPost(app.url, command, FORM)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!h.slack.responses.some((r) => r.url.endsWith('/nul')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const reply = h.slack.responses.find((r) => r.url.endsWith('/nul'));
    expect(String(reply?.body.text)).toMatch(/^Your question contains control characters/);
    expect(h.slack.messages).toHaveLength(0);
  });
});
