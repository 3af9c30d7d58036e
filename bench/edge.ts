// The HTTP edge under hostile load: `serve`'s memory while 100 clients at once each POST a 4 MB body to
// /slack/events, unsigned, then with fresh but forged signature headers.   npm run bench:edge
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { serveWithFakes } from './lib/serve-process.js';
import { fmt, report } from './lib/stats.js';

const CLIENTS = Number(process.env.EDGE_CLIENTS ?? 100);
const BODY_BYTES = 4 * 1024 * 1024;

// Each refusal is a warning; a hundred of them would bury the figures.
const serve = await serveWithFakes('edge', new RuleLlm(), { env: { LOG_LEVEL: 'error' } });
const { app, url } = serve;
const rssMb = () => {
  const status = readFileSync(`/proc/${app.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};
await new Promise((r) => setTimeout(r, 3000));
const idle = rssMb();

const figures: Record<string, number> = { clients: CLIENTS, idleRssMb: Number(fmt(idle)) };
for (const [name, headers] of [
  ['unsigned', () => ({})],
  [
    'forgedSignature',
    () => ({
      'x-slack-signature': 'v0=00',
      'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)),
    }),
  ],
] as const) {
  let peak = rssMb();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 20);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: CLIENTS }, () => post(url, headers())));
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  const byStatus: Record<string, number> = {};
  // A reset: the connection closed under a client still sending what was never going to be read.
  for (const s of statuses) byStatus[s || 'reset'] = (byStatus[s || 'reset'] ?? 0) + 1;
  console.log(
    `${name}: ${CLIENTS} × 4 MB at once → ${Object.entries(byStatus)
      .map(([s, n]) => `${n} × ${s}`)
      .join(
        ', ',
      )} in ${fmt(ms, 0)} ms; RSS idle ${fmt(idle)} MB, peak ${fmt(peak)} MB (+${fmt(peak - idle)} MB)`,
  );
  figures[`${name}.peakRssMb`] = Number(fmt(peak));
  figures[`${name}.growthMb`] = Number(fmt(peak - idle));
}
const growth = Math.max(figures['unsigned.growthMb']!, figures['forgedSignature.growthMb']!);
console.log(`memory growth ${fmt(growth)} MB (target ≤ 50 MB): ${growth <= 50 ? 'met' : 'MISSED'}`);
const healthy = (await fetch(url.replace('/slack/events', '/healthz'))).status;
console.log(`/healthz afterwards: ${healthy}`);
report('edge', { ...figures, healthzAfter: healthy });
await serve.stop();
process.exit(0);

/** Streams a whole 4 MB body unless the server answers first; resolves with the status. */
function post(to: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(to, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(BODY_BYTES), ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      req.destroy();
    });
    req.on('error', () => {
      if (!answered) resolve(0);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const write = () => {
      while (!answered && sent < BODY_BYTES) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}
