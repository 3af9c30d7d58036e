import { randomUUID } from 'node:crypto';
import { agentsBackend } from '../../src/backends/agents/agents-backend.js';
import type { EngineBase } from '../../src/engine/session-context.js';
import type { SessionState } from '../../src/engine/session-state.js';
import type { EngineSettings } from '../../src/engine/settings.js';
import type { Checkpoint } from '../../src/ports/research.js';
import type { AdmissionRules } from '../../src/sessions/admission.js';
import { SessionAdmission } from '../../src/sessions/admission.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import { type ResearchBackends, researchBackends } from '../../src/sessions/research-backends.js';
import { SessionService } from '../../src/sessions/session-service.js';
import type { Database } from '../../src/store/database.js';
import { SteeringStore } from '../../src/store/steering-store.js';
import { testSettings } from './engine-harness.js';

/** The agents backend over these adapters, as the only backend. */
export function testResearch(
  engine: EngineBase,
  settings: EngineSettings = testSettings(),
): ResearchBackends {
  return researchBackends(agentsBackend(async () => engine, settings));
}

/** A backend for pure uses (starting, answering, viewing): running with it fails the test. */
export const viewOnlyResearch = researchBackends(
  agentsBackend(async () => {
    throw new Error('this test does not run research');
  }, testSettings()),
);

/** The session room's use cases on a test database. */
export function testService(
  db: Database,
  options: {
    research?: ResearchBackends;
    rules?: () => Promise<AdmissionRules>;
    newSessionId?: () => string;
    maxQuestionChars?: number;
  } = {},
): SessionService {
  return new SessionService({
    sessions: new SessionStore(db.pool),
    lifecycle: new SessionLifecycle(db.pool, 24),
    admission: new SessionAdmission(db.pool, 24),
    rules: options.rules ?? (async () => ({ perUser: 2, caps: {}, costUsd: null })),
    research: options.research ?? viewOnlyResearch,
    steering: new SteeringStore(db.pool),
    newSessionId: options.newSessionId ?? randomUUID,
    maxQuestionChars: options.maxQuestionChars ?? 2000,
  });
}

/** A stored session's checkpoint read as the agents backend's state. */
export async function agentsState(
  store: { loadCheckpoint(id: string): Promise<Checkpoint | null> },
  id: string,
): Promise<SessionState | null> {
  return (await store.loadCheckpoint(id)) as SessionState | null;
}
