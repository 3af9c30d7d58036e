// A burst of signed /research commands from a process of its own, so the acks are timed by a client
// that does nothing else (the benchmark's process also serves the fake Slack and model servers):
//   node --import tsx bench/lib/burst.ts APP_URL RESPONSE_URL_BASE SESSIONS CHANNELS [FIRST_USER]
// Connections are opened first (Slack's own senders keep theirs open), then every request is written
// at once; each is timed from its write to the end of its response. Prints [{ status, ms }, …] as JSON.
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { FORM, SIGNING_SECRET, slashCommand } from '../../test/helpers/slack-requests.js';

const [url, responseBase, sessions, channels, firstUser = '1000'] = process.argv.slice(2);
const n = Number(sessions);
const agent = new Agent({ keepAlive: true, maxSockets: n });

function send(path: string, method: string, body = '', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request(new URL(path, url), { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// Open the connections (and warm both ends) with health checks, as many as the burst will use.
await Promise.all(Array.from({ length: n }, () => send('/healthz', 'GET')));

const bodies = Array.from({ length: n }, (_, i) => {
  const body = slashCommand(
    `Benchmark question number ${i + 1} about storage`,
    `U${Number(firstUser) + i}`,
    `${responseBase}c${i}`,
    {
      channel_id: `C${(i % Number(channels)) + 1}`,
    },
  );
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    body,
    headers: { 'content-type': FORM, 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
  };
});
const acks = await Promise.all(
  bodies.map(({ body, headers }) => send(new URL(url!).pathname, 'POST', body, headers)),
);
agent.destroy();
process.stdout.write(`${JSON.stringify(acks)}\n`);
