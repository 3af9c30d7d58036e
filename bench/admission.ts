// Limits under simultaneous requests, against `serve` in its own process: how many sessions start and
// what they spend when requests arrive together.   npm run bench:admission
//   1. one person sends 50 /research commands at once, MAX_SESSIONS_PER_USER=2
//   2. 20 people mention the bot at once, WORKSPACE_DAILY_BUDGET_USD=6 (prices set)
//   3. one person mentions the bot 20 times at once (20 channels), USER_DAILY_BUDGET_USD=6
import pg from 'pg';
import type { FakeSlack } from '../test/fakes/fake-slack-server.js';
import { RuleLlm } from '../test/fakes/rule-llm.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, slashCommand } from '../test/helpers/slack-requests.js';
import { serveWithFakes, waitUntil } from './lib/serve-process.js';
import { report } from './lib/stats.js';

// Each model call costs $0.06 at this price; the settings estimate of a run is $0.40-$3.00.
const PRICED = { MODEL_PRICES: '{"gpt-4.1":{"input":1000,"output":1000}}', TOKEN_BUDGET: '20000' };
const figures: Record<string, number> = {};
const REFUSAL = /research budget|research sessions running|already under way/;
let ts = 0;
const nextTs = () => `1800000900.${String(++ts).padStart(6, '0')}`;

await scenario(
  'onePerson50Commands',
  { MAX_SESSIONS_PER_USER: '2', PLAN_REVIEW_SECONDS: '60' },
  2,
  (url, slack) =>
    Array.from({ length: 50 }, (_, i) =>
      signedPost(url, slashCommand('Tidal power in 2025?', 'UONE', slack.responseUrl(`c${i}`)), FORM),
    ),
);
await scenario('twentyPeopleWorkspaceCap', { ...PRICED, WORKSPACE_DAILY_BUDGET_USD: '6' }, 6, (url) =>
  Array.from({ length: 20 }, (_, i) => mention(url, `UP${i}`, `CP${i}`)),
);
await scenario(
  'onePersonTwentyMentionsUserCap',
  { ...PRICED, USER_DAILY_BUDGET_USD: '6', MAX_SESSIONS_PER_USER: '20' },
  6,
  (url) => Array.from({ length: 20 }, (_, i) => mention(url, 'UMANY', `CM${i}`)),
);
report('admission', figures);
process.exit(0);

function mention(url: string, user: string, channel: string) {
  const text = '<@UBOT> History of the transistor';
  return signedPost(
    url,
    eventCallback({ type: 'app_mention', channel, user, text, ts: nextTs() }),
    JSON_TYPE,
  );
}

/** Fires the burst, waits for every started session to come to rest, and reads what they cost. */
async function scenario(
  name: string,
  env: Record<string, string>,
  capUsdOrLimit: number,
  burst: (url: string, slack: FakeSlack) => Promise<unknown>[],
) {
  const serve = await serveWithFakes(`admission_${name.toLowerCase()}`, new RuleLlm({ rounds: 6 }), {
    concurrentSessions: 20,
    env: { MAX_SESSIONS_PER_USER: '20', ...env, LOG_LEVEL: 'error' },
  });
  const { url, slack, database } = serve;
  const started = performance.now();
  const requests = burst(url, slack);
  await Promise.all(requests);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const refused = () =>
    slack.calls.filter((c) => c.method === 'chat.postEphemeral' && REFUSAL.test(String(c.args.text))).length +
    slack.responses.filter((r) => REFUSAL.test(String(r.body.text))).length;
  const count = async () => (await db.query('SELECT count(*)::int AS n FROM sessions')).rows[0].n as number;
  // Every request is decided: started, or told why not.
  await waitUntil(async () => (await count()) + refused() === requests.length, 60_000, `${name} decided`);
  const open = async () =>
    (
      await db.query(
        `SELECT count(*)::int AS n FROM sessions WHERE finished_at IS NULL AND status <> 'reviewing'`,
      )
    ).rows[0].n as number;
  await waitUntil(async () => (await open()) === 0, 180_000, `${name} to finish`);
  const { rows } = await db.query(
    'SELECT count(*)::int AS sessions, COALESCE(sum(cost_usd), 0)::float8 AS spent, max(cost_usd)::float8 AS largest FROM sessions',
  );
  await db.end();
  const refusals =
    slack.calls.filter(
      (c) =>
        c.method === 'chat.postEphemeral' &&
        /research budget|research sessions running|already under way/.test(String(c.args.text)),
    ).length +
    slack.responses.filter((r) => /research budget|sessions running/.test(String(r.body.text))).length;
  const { sessions, spent, largest } = rows[0];
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${name}: ${sessions} sessions started (limit ${capUsdOrLimit}${name.includes('Cap') ? ' USD' : ' sessions'}), ` +
      `${refusals} refused with the sentence, spent $${spent.toFixed(2)} (largest run $${(largest ?? 0).toFixed(2)}), ${seconds.toFixed(1)} s`,
  );
  figures[`${name}.sessions`] = sessions;
  figures[`${name}.refused`] = refusals;
  figures[`${name}.spentUsd`] = Number(spent.toFixed(2));
  await serve.stop();
}
