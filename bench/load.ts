// Load: the real app (`deep-research serve`, HTTP mode, in its own process as in
// production) with the fake Slack server and a scripted model served from this
// process; N concurrent sessions started through signed slash commands.
//   npm run bench:load   (LOAD_SESSIONS=100, LOAD_MODEL_MS=500)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { fakeOpenAiServer } from '../test/fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../test/fakes/fake-searxng-server.js';
import { fakeSlackServer } from '../test/fakes/fake-slack-server.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { benchDatabase, writeStats } from './lib/bench-database.js';
import { startServe } from './lib/serve-process.js';
import { fmt, percentile, report } from './lib/stats.js';

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 100);
const MODEL_MS = Number(process.env.LOAD_MODEL_MS ?? 500);
const CHANNELS = 20;

const BURSTS = 3;

/** SESSIONS signed /research commands at once, from a process of its own (bench/lib/burst.ts). */
async function burst(
  appUrl: string,
  responses: string,
  firstUser: number,
): Promise<{ status: number; ms: number }[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'lib/burst.ts'),
      appUrl,
      responses,
      String(SESSIONS),
      String(CHANNELS),
      String(firstUser),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  await once(child, 'exit');
  return JSON.parse(out);
}

const model = await fakeOpenAiServer(new RuleLlm({ delayMs: MODEL_MS, rounds: 2, agentsPerCycle: 2 }));
const search = await fakeSearxngServer();

// Acks with the default settings: the app researches 4 sessions at a time and queues the rest.
console.log(
  `load: acks with the default settings (${BURSTS} bursts of ${SESSIONS}), then ${SESSIONS} sessions at once`,
);
const ackDatabase = await benchDatabase('load_ack');
const ackSlack = await fakeSlackServer({ updatesPerMinute: 50 });
const defaults = await startServe({
  modelUrl: model.baseUrl,
  searchUrl: search.url,
  databaseUrl: ackDatabase.url,
  slackApiUrl: ackSlack.apiUrl,
});
const burstP99s: number[] = [];
const defaultAcks: number[] = [];
for (let b = 0; b < BURSTS; b++) {
  const acks = await burst(defaults.url, ackSlack.responseUrl(''), 10_000 * (b + 1));
  if (acks.some((a) => a.status !== 200)) throw new Error('an ack failed with the default settings');
  defaultAcks.push(...acks.map((a) => a.ms));
  burstP99s.push(
    percentile(
      acks.map((a) => a.ms),
      99,
    ),
  );
  console.log(`default settings, burst ${b + 1} of ${SESSIONS}: ack p99 ${fmt(burstP99s.at(-1)!)} ms`);
  await new Promise((r) => setTimeout(r, 3000));
}
defaults.app.kill('SIGKILL');
await once(defaults.app, 'exit');
await Promise.all([ackDatabase.drop(), ackSlack.close()]);

// 100 sessions researched at once, against a fresh fake Slack.
const slack = await fakeSlackServer({ updatesPerMinute: 50 });

const database = await benchDatabase('load');
const { app, url, health } = await startServe({
  modelUrl: model.baseUrl,
  searchUrl: search.url,
  databaseUrl: database.url,
  slackApiUrl: slack.apiUrl,
  concurrentSessions: SESSIONS,
});

const probe = new pg.Client({ connectionString: database.url });
await probe.connect();
const count = async (where: string) =>
  Number((await probe.query(`SELECT count(*)::int AS n FROM sessions WHERE ${where}`)).rows[0].n);
type Health = { running: number; rssBytes: number; heapUsedBytes: number };
const sample = async () => (await (await fetch(health)).json()) as Health;
const baseline = await sample();
const writesBefore = await writeStats(database.url);
let peak = { rss: 0, heap: 0, active: 0 };
const sampler = setInterval(async () => {
  const now = await sample().catch(() => null);
  if (now && now.running >= peak.active)
    peak = { rss: now.rssBytes, heap: now.heapUsedBytes, active: now.running };
}, 200);

console.log(
  `${SESSIONS} sessions via signed /research commands, model ${MODEL_MS} ms/call, all researched at once`,
);
const started = Date.now();
const acks = await burst(url, slack.responseUrl(''), 1000);
const failedAcks = acks.filter((a) => a.status !== 200).length;
const doneTimes: number[] = [];
for (let seen = 0; seen < SESSIONS; ) {
  await new Promise((r) => setTimeout(r, 250));
  const done = await count("status IN ('done', 'failed', 'cancelled')");
  for (; seen < done; seen++) doneTimes.push(Date.now() - started);
  if (Date.now() - started > 20 * 60_000)
    throw new Error(`only ${done} of ${SESSIONS} sessions finished in 20 minutes`);
}
const failed = await count("status <> 'done'");
const allDone = Date.now() - started;
// The last edits (progress summary, root status) go out after the sessions end, within the edit budget.
const finalsDone = await timeUntil(() => {
  const roots = slack.messages.filter((m) => !m.threadTs);
  return roots.length === SESSIONS && roots.every((m) => m.history.length > 1);
}, 15 * 60_000);
clearInterval(sampler);
await new Promise((r) => setTimeout(r, 1500));
const writesAfter = await writeStats(database.url);

const ackMs = acks.map((a) => a.ms);
const updates = slack.calls.filter((c) => c.method === 'chat.update');
const limited = slack.calls.filter((c) => c.status === 429);
const figures = {
  sessions: SESSIONS,
  modelMs: MODEL_MS,
  defaultAckP50Ms: Number(fmt(percentile(defaultAcks, 50))),
  defaultAckP99Ms: Number(fmt(percentile(defaultAcks, 99))),
  defaultAckWorstBurstP99Ms: Number(fmt(Math.max(...burstP99s))),
  failedAcks,
  failedSessions: failed,
  ackP50MsAt100Running: Number(fmt(percentile(ackMs, 50))),
  ackP99MsAt100Running: Number(fmt(percentile(ackMs, 99))),
  allSessionsDoneS: Number(fmt(allDone / 1000)),
  sessionsPerMinute: Number(fmt(SESSIONS / (allDone / 60_000))),
  medianSessionS: Number(fmt(percentile(doneTimes, 50) / 1000)),
  finalEditsDeliveredS: finalsDone === null ? null : Number(fmt(finalsDone / 1000)),
  chatUpdatesPerSession: Number(fmt(updates.filter((c) => c.status === 200).length / SESSIONS, 2)),
  postsPerSession: Number(
    fmt(slack.calls.filter((c) => c.method === 'chat.postMessage').length / SESSIONS, 2),
  ),
  rateLimited429s: limited.length,
  peakActiveSessions: peak.active,
  heapPerActiveSessionKb: peak.active
    ? Math.round((peak.heap - baseline.heapUsedBytes) / peak.active / 1024)
    : null,
  rssPerActiveSessionKb: peak.active ? Math.round((peak.rss - baseline.rssBytes) / peak.active / 1024) : null,
  dbRowsWrittenPerSession: Math.round((writesAfter.rows - writesBefore.rows) / SESSIONS),
  dbCommitsPerSession: Math.round((writesAfter.commits - writesBefore.commits) / SESSIONS),
};
for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(28)} ${v}`);
console.log(
  `p99 ack with the default settings ${figures.defaultAckP99Ms} ms (target ≤ 100): ${figures.defaultAckP99Ms <= 100 ? 'met' : 'MISSED'}; ` +
    `429s from our edits: ${limited.length} (target 0): ${limited.length === 0 ? 'met' : 'MISSED'}`,
);
report('load', figures);

app.kill('SIGTERM');
await once(app, 'exit');
await probe.end();
await Promise.all([slack.close(), model.close(), search.close()]);
await database.drop();
process.exit(0);

async function timeUntil(check: () => boolean, timeoutMs: number): Promise<number | null> {
  const begin = Date.now();
  while (Date.now() - begin < timeoutMs) {
    if (check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}
