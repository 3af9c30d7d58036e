// Soak: 800 short sessions through one `deep-research serve` process (its own
// process, as in production), against the fake Slack (40 workspaces, 40
// channels), a fast scripted model and a local search endpoint. Prints the
// process's heap and RSS after a warm-up and at the end; flat memory means
// per-session state is dropped when a session ends.
//   npm run bench:soak   (SOAK_SESSIONS=800, SOAK_WARMUP=100)
import { once } from 'node:events';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fakeOpenAiServer } from '../test/fakes/fake-openai-server.js';
import { fakeSearxngServer } from '../test/fakes/fake-searxng-server.js';
import { fakeSlackServer } from '../test/fakes/fake-slack-server.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { FORM, signedPost, slashCommand } from '../test/helpers/slack-requests.js';
import { benchDatabase } from './lib/bench-database.js';
import { startServe, waitUntil } from './lib/serve-process.js';
import { fmt, report } from './lib/stats.js';

const SESSIONS = Number(process.env.SOAK_SESSIONS ?? 800);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 100);
const BATCH = 40;

const database = await benchDatabase('soak');
const slack = await fakeSlackServer({ updatesPerMinute: 1_000_000 });
const model = await fakeOpenAiServer(new RuleLlm({ rounds: 1 }));
const search = await fakeSearxngServer();
// SOAK_HEAP_SNAPSHOTS=1: the live heap, read after the full collection a heap snapshot forces; the
// snapshot's own buffers then inflate RSS for the rest of the run, so RSS is measured in runs without it.
const SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS ? mkdtempSync(join(tmpdir(), 'soak-heap-')) : undefined;
if (SNAPSHOTS) {
  process.env.BENCH_APP_NODE_FLAGS = [
    process.env.BENCH_APP_NODE_FLAGS ?? '',
    '--heapsnapshot-signal=SIGUSR2',
    `--diagnostic-dir=${SNAPSHOTS}`,
  ].join(' ');
}
const { app, url, health } = await startServe({
  modelUrl: model.baseUrl,
  searchUrl: search.url,
  databaseUrl: database.url,
  slackApiUrl: slack.apiUrl,
  concurrentSessions: 8,
  // The report as messages: canvases.create is Tier 2 (about 20 a minute per workspace), which would make
  // this a measure of that limit instead of memory.
  env: { SLACK_UPDATES_PER_MINUTE: '100', REPORT_FORMAT: 'messages' },
});
const probe = new pg.Client({ connectionString: database.url });
await probe.connect();
const finished = async () =>
  Number(
    (
      await probe.query(
        "SELECT count(*)::int AS n FROM sessions WHERE status IN ('done','failed','cancelled')",
      )
    ).rows[0].n,
  );
type Health = { rssBytes: number; heapUsedBytes: number; delivery: { pending: number } };
/** /healthz, read again when a kept-alive connection was closed under it (the process pauses to write a snapshot). */
async function sample(): Promise<Health> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await (await fetch(health)).json()) as Health;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
/**
 * Memory once the process is idle: every session finished and every Slack
 * write delivered. With SNAPSHOTS, a heap snapshot (SIGUSR2) forces a full
 * collection first, so `heapUsed` right after it is the live heap, not
 * garbage waiting for the collector; the files stay there for a closer look.
 */
async function settled(total: number): Promise<Health> {
  await waitUntil(async () => (await finished()) >= total, 30 * 60_000, `${total} sessions`);
  await waitUntil(async () => (await sample()).delivery.pending === 0, 10 * 60_000, 'the outbox to empty');
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await sample();
  if (!SNAPSHOTS) return idle;
  const dir = SNAPSHOTS;
  const before = readdirSync(dir).length;
  app.kill('SIGUSR2');
  await waitUntil(async () => readdirSync(dir).length > before, 5 * 60_000, 'the heap snapshot');
  // The file appears when writing starts; the process answers again once it is written.
  return { ...(await sample()), rssBytes: idle.rssBytes };
}

let sent = 0;
async function run(upTo: number): Promise<void> {
  while (sent < upTo) {
    const batch = Array.from({ length: Math.min(BATCH, upTo - sent) }, (_, i) => sent + i);
    await Promise.all(
      batch.map((n) =>
        signedPost(
          url,
          slashCommand(`Soak question ${n + 1} about tides`, `U${n}`, slack.responseUrl(`c${n}`), {
            team_id: `T${(n % 40) + 1}`,
            channel_id: `C${(n % 40) + 1}`,
          }),
          FORM,
        ),
      ),
    );
    sent += batch.length;
    await waitUntil(async () => (await finished()) >= sent - BATCH, 30 * 60_000, 'the queue to drain');
  }
}

console.log(`soak: ${SESSIONS} short sessions in one serve process (warm-up ${WARMUP})`);
const started = Date.now();
await run(WARMUP);
const warm = await settled(WARMUP);
await run(SESSIONS);
const end = await settled(SESSIONS);
const mb = (b: number) => Number(fmt(b / 2 ** 20));
const failed = Number(
  (await probe.query("SELECT count(*)::int AS n FROM sessions WHERE status <> 'done'")).rows[0].n,
);
const figures = {
  sessions: SESSIONS,
  failedSessions: failed,
  minutes: Number(fmt((Date.now() - started) / 60_000)),
  heapAfterWarmupMb: mb(warm.heapUsedBytes),
  heapAtEndMb: mb(end.heapUsedBytes),
  heapGrowthPct: Number(fmt((100 * (end.heapUsedBytes - warm.heapUsedBytes)) / warm.heapUsedBytes)),
  rssAfterWarmupMb: mb(warm.rssBytes),
  rssAtEndMb: mb(end.rssBytes),
  rssGrowthPct: Number(fmt((100 * (end.rssBytes - warm.rssBytes)) / warm.rssBytes)),
};
for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(22)} ${v}`);
console.log(
  SNAPSHOTS
    ? `live heap (after a forced collection); snapshots: ${SNAPSHOTS}; RSS is inflated by them`
    : 'heap as used (collected or not); SOAK_HEAP_SNAPSHOTS=1 measures the live heap',
);
console.log(
  `RSS growth ${figures.rssGrowthPct}% (target ≤ 10): ${figures.rssGrowthPct <= 10 ? 'met' : 'MISSED'}`,
);
report('soak', figures);

app.kill('SIGTERM');
await once(app, 'exit');
await probe.end();
await Promise.all([slack.close(), model.close(), search.close()]);
await database.drop();
process.exit(0);
