import { randomUUID } from 'node:crypto';
import { agentsBackend } from '../../src/backends/agents/agents-backend.js';
import { deepResearchBackend } from '../../src/backends/deep-research-api/deep-research-backend.js';
import { newSession } from '../../src/engine/run-session.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { ResponsesApi } from '../../src/llm/responses-api.js';
import { systemClock } from '../../src/ports/clock.js';
import { silentLogger } from '../../src/ports/logger.js';
import { insertQueued } from '../../src/sessions/records/insert-session.js';
import { researchBackends } from '../../src/sessions/research-backends.js';
import type { Database } from '../../src/store/database.js';
import { TaskGraphLlm } from '../fakes/task-graph-llm.js';
import { prompts, testSettings } from './engine-harness.js';

/** The research backends with the deep-research one current, its hosted requests going to `responsesUrl`. */
export function deepResearchOf(responsesUrl: string, plans: unknown[]) {
  const llm = new TaskGraphLlm(plans);
  const engine = { llm, prompts, countTokens, clock: systemClock, logger: silentLogger };
  const settings = testSettings();
  const api = new ResponsesApi({
    apiKey: 'sk-test',
    baseURL: responsesUrl,
    maxRetries: 3,
    timeoutMs: 5000,
    logger: silentLogger,
  });
  const hosted = deepResearchBackend(async () => engine, settings, api, {
    model: 'gpt-5.5',
    effort: 'high',
    maxTasks: 6,
    taskTimeMs: 60_000,
    pollMs: 50,
  });
  return { research: researchBackends(hosted, [agentsBackend(async () => engine, settings)]), llm };
}

/** A deep-research session queued for the workers. */
export async function submitDeepResearch(
  db: Database,
  question = 'Heat pumps or gas boilers?',
): Promise<string> {
  const id = randomUUID();
  await insertQueued(
    db.pool,
    { id, origin: 'cli', requester: 'ann', question },
    newSession(id, { question, skipClarification: true }, 'deep-research-api'),
    {},
    24,
  );
  return id;
}
