import { request } from 'node:http';
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

  it('refuses a request without a signature before reading its body, and cuts off a signed-looking one past the limit', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    // Headers and 64 KB of a promised 4 MB body: the answer comes without the rest ever being sent.
    const unsigned = await partialPost(app.url, {});
    expect(unsigned).toEqual({ status: 401, sentBytes: 64 * 1024 });
    const stale = await partialPost(app.url, {
      'x-slack-signature': 'v0=00',
      'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000) - 600),
    });
    expect(stale.status).toBe(401);
    // Fresh headers but a body past 1 MiB: refused as it streams (413), not after 4 MB arrived.
    const big = await partialPost(
      app.url,
      { 'x-slack-signature': 'v0=00', 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) },
      2 * 1024 * 1024,
    );
    expect(big.status).toBe(413);
    expect((await fetch(app.url.replace('/slack/events', '/healthz'))).status).toBe(200);
  });

  it('refuses a signed request from another workspace than the one it is installed in', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    const foreign = slashCommand('Why is the sky blue?', 'UANN', h.slack.responseUrl('t2'), {
      team_id: 'T2',
    });
    expect((await signedPost(app.url, foreign, FORM)).status).toBe(401);
    const home = slashCommand('help', 'UANN', h.slack.responseUrl('t1'));
    expect((await signedPost(app.url, home, FORM)).status).toBe(200);
    expect(h.slack.messages).toHaveLength(0);
    expect(h.slack.responses.filter((r) => r.url.endsWith('/t2'))).toHaveLength(0);
  });

  it('listens on HOST only', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { HOST: '127.0.0.2' });
    const app = await h.start();
    const port = new URL(app.url).port;
    expect((await fetch(`http://127.0.0.2:${port}/healthz`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});

/**
 * POSTs headers and `send` bytes of a body that claims to be 4 MB, then waits
 * for the answer without sending more: how many bytes went out, and the status.
 */
function partialPost(
  url: string,
  headers: Record<string, string>,
  send = 64 * 1024,
): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(4 * 1024 * 1024), ...headers },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, sentBytes });
      req.destroy();
    });
    req.on('error', (err) => (sentBytes ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const write = () => {
      if (sentBytes >= send) return;
      sentBytes += chunk.length;
      if (req.write(chunk)) setImmediate(write);
      else req.once('drain', write);
    };
    write();
  });
}
