// Delivery: the real app (`deep-research serve` in its own process) with the fake Slack
// server, which enforces Slack's per-channel posting limit and the Tier 3 edit budget.
// N sessions finish together, first all in one channel, then spread over one workspace;
// prints delivered, lost, duplicated, report-to-delivered p50/p99 and 429s received.
//   npm run bench:delivery   (DELIVERY_ONE_CHANNEL=20, DELIVERY_WORKSPACE=60, DELIVERY_CHANNELS=15)
import { once } from 'node:events';
import pg from 'pg';
import { fakeOpenAiServer } from '../test/fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../test/fakes/fake-searxng-server.js';
import { type FakeSlack, fakeSlackServer, render } from '../test/fakes/fake-slack-server.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { eventCallback, JSON_TYPE, signedPost } from '../test/helpers/slack-requests.js';
import { benchDatabase } from './lib/bench-database.js';
import { startServe, waitUntil } from './lib/serve-process.js';
import { fmt, percentile, report } from './lib/stats.js';

const ONE_CHANNEL = Number(process.env.DELIVERY_ONE_CHANNEL ?? 20);
const WORKSPACE = Number(process.env.DELIVERY_WORKSPACE ?? 60);
const CHANNELS = Number(process.env.DELIVERY_CHANNELS ?? 15);

const figures: Record<string, unknown> = {};
let tsCounter = 0;
for (const [name, sessions, channels] of [
  ['oneChannel', ONE_CHANNEL, 1],
  ['workspace', WORKSPACE, CHANNELS],
] as const) {
  const result = await scenario(sessions, channels);
  console.log(`\n${name}: ${sessions} sessions finishing together in ${channels} channel(s)`);
  for (const [k, v] of Object.entries(result)) console.log(`  ${k.padEnd(26)} ${v}`);
  for (const [k, v] of Object.entries(result)) figures[`${name}.${k}`] = v;
}
const lost = Number(figures['oneChannel.lost']) + Number(figures['workspace.lost']);
const duplicated = Number(figures['oneChannel.duplicated']) + Number(figures['workspace.duplicated']);
const limited = Number(figures['oneChannel.ourRateLimited']) + Number(figures['workspace.ourRateLimited']);
console.log(
  `\nlost ${lost} (target 0): ${lost === 0 ? 'met' : 'MISSED'}; duplicated ${duplicated} (target 0): ` +
    `${duplicated === 0 ? 'met' : 'MISSED'}; self-caused 429s ${limited} (target 0): ${limited === 0 ? 'met' : 'MISSED'}`,
);
report('delivery', figures);
process.exit(0);

async function scenario(sessions: number, channels: number) {
  const database = await benchDatabase(`delivery_${channels}`);
  const slack = await fakeSlackServer({ updatesPerMinute: 50 });
  // Every session takes the same time, so they all reach their reports together.
  const model = await fakeOpenAiServer(new RuleLlm({ delayMs: 300, rounds: 1 }));
  const search = await fakeSearxngServer();
  const { app, url } = await startServe({
    modelUrl: model.baseUrl,
    searchUrl: search.url,
    databaseUrl: database.url,
    slackApiUrl: slack.apiUrl,
    concurrentSessions: sessions,
    // What is measured is the split report's posts under faults (the canvas path has its own tests).
    env: { REPORT_FORMAT: 'messages' },
  });
  const threads = await Promise.all(
    Array.from({ length: sessions }, async (_, i) => {
      const channel = `C${(i % channels) + 1}`;
      const ts = `1800000300.${String(++tsCounter).padStart(6, '0')}`;
      const event = {
        type: 'app_mention',
        channel,
        user: `U${i}`,
        text: `<@UBOT> Question ${i} on tides`,
        ts,
      };
      await signedPost(url, eventCallback(event), JSON_TYPE);
      return { channel, ts };
    }),
  );
  const probe = new pg.Client({ connectionString: database.url });
  await probe.connect();
  const settled = async () =>
    (await probe.query("SELECT count(*)::int AS n FROM sessions WHERE status IN ('done', 'undeliverable')"))
      .rows[0].n as number;
  const started = Date.now();
  await waitUntil(async () => (await settled()) === sessions, 20 * 60_000, 'delivery').catch(() => {});
  const drained = Date.now() - started;
  // From the report being written to the reader having all of it.
  const { rows } = await probe.query(
    `SELECT s.status, EXTRACT(EPOCH FROM (s.finished_at - e.created_at)) * 1000 AS ms
     FROM sessions s JOIN session_events e ON e.session_id = s.id AND e.type = 'report_done'`,
  );
  await probe.end();
  app.kill('SIGTERM');
  await once(app, 'exit');
  await Promise.all([slack.close(), model.close(), search.close()]);
  await database.drop();

  const counts = threads.map(({ channel, ts }) => threadCounts(slack, channel, ts));
  const complete = counts.filter((c) => c.reports >= 1 && c.sources >= 1 && c.files >= 1).length;
  const ms = rows.filter((r) => r.status === 'done').map((r) => Number(r.ms));
  return {
    delivered: complete,
    lost: sessions - complete,
    duplicated: counts.reduce(
      (n, c) => n + Math.max(0, c.reports - 1) + Math.max(0, c.sources - 1) + Math.max(0, c.files - 1),
      0,
    ),
    undeliverable: rows.filter((r) => r.status === 'undeliverable').length,
    reportToDeliveredP50S: ms.length ? Number(fmt(percentile(ms, 50) / 1000)) : null,
    reportToDeliveredP99S: ms.length ? Number(fmt(percentile(ms, 99) / 1000)) : null,
    allDeliveredS: Number(fmt(drained / 1000)),
    postsPerChannelPerSecond: Number(fmt(maxPostRate(slack), 2)),
    ourRateLimited: slack.stats.postLimited + slack.stats.updateLimited,
    rateLimitedReceived: slack.calls.filter((c) => c.status === 429).length,
  };
}

function threadCounts(slack: FakeSlack, channel: string, ts: string) {
  const thread = slack.thread(channel, ts);
  return {
    reports: thread.filter((m) => render(m).startsWith('*Report*')).length,
    sources: thread.filter((m) => render(m).startsWith('*Sources*')).length,
    files: thread.filter((m) => m.files).length,
  };
}

/** The busiest channel's posts per second over its busiest 10 s. */
function maxPostRate(slack: FakeSlack): number {
  const byChannel = new Map<string, number[]>();
  for (const c of slack.calls.filter((x) => x.method === 'chat.postMessage' && x.status === 200)) {
    const list = byChannel.get(String(c.args.channel)) ?? [];
    list.push(c.at);
    byChannel.set(String(c.args.channel), list);
  }
  let best = 0;
  for (const times of byChannel.values()) {
    for (const start of times)
      best = Math.max(best, times.filter((t) => t >= start && t < start + 10_000).length / 10);
  }
  return best;
}
