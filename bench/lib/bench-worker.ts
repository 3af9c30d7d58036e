import { SessionLeases } from '../../src/jobs/session-leases.js';
import { startWorker, type Worker } from '../../src/jobs/worker.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import { silentLogger } from '../../src/ports/logger.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { RuleLlm, ruleSearch } from '../../test/fakes/rule-llm.js';
import { prompts, testSettings } from '../../test/helpers/engine-harness.js';
import { testResearch } from '../../test/helpers/session-room.js';

/**
 * A worker on the scripted model (300 ms per answer, 3 rounds), heartbeat a third of the
 * lease; `listen` makes it LISTEN for cancel requests as the service does.
 */
export function startBenchWorker(
  db: Database,
  options: { owner: string; leaseMs: number; listen?: boolean; lifecycle?: SessionLifecycle },
): Worker {
  return startWorker(
    {
      sessions: new SessionStore(db.pool),
      lifecycle: options.lifecycle ?? new SessionLifecycle(db.pool, 24),
      leases: new SessionLeases(db.pool, options.owner, options.leaseMs),
      research: testResearch(
        {
          llm: new RuleLlm({ delayMs: 300, rounds: 3 }),
          prompts,
          webSearch: ruleSearch,
          countTokens,
          clock: systemClock,
          logger: silentLogger,
        },
        testSettings({ timeBudgetMs: 600_000, agentTimeBudgetMs: 300_000 }),
      ),
      logger: silentLogger,
    },
    {
      concurrency: 5,
      pollMs: 100,
      heartbeatMs: options.leaseMs / 3,
      maintenanceMs: 3_600_000,
      ...(options.listen ? { cancelsFrom: db.url } : {}),
    },
  );
}
