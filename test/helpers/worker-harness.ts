import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { newSession } from '../../src/engine/run-session.js';
import type { EngineSettings } from '../../src/engine/settings.js';
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { startWorker, type Worker, type WorkerOptions } from '../../src/jobs/worker.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Llm } from '../../src/ports/llm.js';
import { silentLogger } from '../../src/ports/logger.js';
import { insertQueued } from '../../src/sessions/records/insert-session.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import type { Database } from '../../src/store/database.js';
import { ruleSearch } from '../fakes/rule-llm.js';
import { prompts, testSettings } from './engine-harness.js';
import { testResearch } from './session-room.js';

export const LEASE_MS = 1500;

export function worker(
  db: Database,
  llm: Llm,
  owner: string,
  settings: EngineSettings = testSettings(),
  options: Partial<WorkerOptions> = {},
  lifecycle = new SessionLifecycle(db.pool, 24),
): Worker {
  return startWorker(
    {
      sessions: new SessionStore(db.pool),
      lifecycle,
      leases: new SessionLeases(db.pool, owner, LEASE_MS),
      research: testResearch(
        { llm, prompts, webSearch: ruleSearch, countTokens, clock: systemClock, logger: silentLogger },
        settings,
      ),
      logger: silentLogger,
    },
    { concurrency: 2, pollMs: 50, heartbeatMs: 200, maintenanceMs: 60_000, ...options },
  );
}

export async function submit(db: Database, question = 'What about topics?'): Promise<string> {
  const id = randomUUID();
  await insertQueued(
    db.pool,
    { id, origin: 'cli', requester: 'ann', question },
    newSession(id, { question, skipClarification: true }),
    {},
    24,
  );
  return id;
}

export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A worker in its own process (a fixture script that prints "ready"), kept in `children` so a test can kill what it left. */
export async function spawnWorker(
  fixture: string,
  args: string[],
  children: ChildProcess[],
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [data] = await once(child.stdout!, 'data');
  if (String(data) !== 'ready\n') throw new Error(`the worker process said ${String(data)}`);
  return child;
}
