// One worker process for the durability benchmark:
//   node --import tsx bench/lib/durability-worker.ts DATABASE_URL OWNER LEASE_MS
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { startWorker } from '../../src/jobs/worker.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import { silentLogger } from '../../src/ports/logger.js';
import { openDatabase } from '../../src/store/database.js';
import { SessionLifecycle } from '../../src/store/session-lifecycle.js';
import { SessionStore } from '../../src/store/session-store.js';
import { RuleLlm, ruleSearch } from '../../test/fakes/rule-llm.js';
import { prompts, testSettings } from '../../test/helpers/engine-harness.js';

const [url, owner, leaseMs] = process.argv.slice(2);
const db = await openDatabase({ url, dataDir: '' });
const lease = Number(leaseMs);
startWorker(
  {
    sessions: new SessionStore(db.pool),
    lifecycle: new SessionLifecycle(db.pool, 24),
    leases: new SessionLeases(db.pool, owner!, lease),
    engine: {
      llm: new RuleLlm({ delayMs: 300, rounds: 3 }),
      prompts,
      webSearch: ruleSearch,
      countTokens,
      clock: systemClock,
      logger: silentLogger,
    },
    settings: testSettings({ timeBudgetMs: 600_000, agentTimeBudgetMs: 300_000 }),
    logger: silentLogger,
  },
  { concurrency: 5, pollMs: 100, heartbeatMs: lease / 3, maintenanceMs: 3_600_000 },
);
process.stdout.write('ready\n');
