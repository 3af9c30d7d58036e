import { randomUUID } from 'node:crypto';
import { agentsBackend } from '../../src/backends/agents/agents-backend.js';
import { localFileFetcher } from '../../src/cli/local-files.js';
import { TerminalLease } from '../../src/cli/terminal-lease.js';
import type { TerminalRunDeps } from '../../src/cli/terminal-run.js';
import type { EngineBase } from '../../src/engine/session-context.js';
import type { SessionState } from '../../src/engine/session-state.js';
import type { EngineSettings } from '../../src/engine/settings.js';
import { SessionLeases } from '../../src/jobs/session-leases.js';
import { READ_DEFAULTS } from '../../src/ports/document-reading.js';
import { type Logger, silentLogger } from '../../src/ports/logger.js';
import type { Checkpoint } from '../../src/ports/research.js';
import { KnowledgeStore } from '../../src/search/knowledge/knowledge-store.js';
import { DocumentReader } from '../../src/search/read/document-reader.js';
import type { AdmissionRules } from '../../src/sessions/admission.js';
import { SessionAdmission } from '../../src/sessions/admission.js';
import type { PolicyGate } from '../../src/sessions/policies/policy-gate.js';
import { AnswerStore } from '../../src/sessions/records/answer-store.js';
import { AuditStore, auditTrail } from '../../src/sessions/records/audit-store.js';
import { FeedbackStore } from '../../src/sessions/records/feedback-store.js';
import { OutboxStore } from '../../src/sessions/records/outbox-store.js';
import { PolicyStore } from '../../src/sessions/records/policy-store.js';
import { applyRetention } from '../../src/sessions/records/retention.js';
import { ScheduleStore } from '../../src/sessions/records/schedule-store.js';
import { SessionLifecycle } from '../../src/sessions/records/session-lifecycle.js';
import { SessionStore } from '../../src/sessions/records/session-store.js';
import { SpendStore } from '../../src/sessions/records/spend-store.js';
import type { Store } from '../../src/sessions/records/store.js';
import { TerminalLifecycle } from '../../src/sessions/records/terminal-lifecycle.js';
import { ReportDeletion } from '../../src/sessions/report-deletion.js';
import { type ResearchBackends, researchBackends } from '../../src/sessions/research-backends.js';
import type { SessionMoments } from '../../src/sessions/session-moments.js';
import { SessionService } from '../../src/sessions/session-service.js';
import { slackErase } from '../../src/slack/deletion/slack-erase.js';
import type { Database } from '../../src/store/database.js';
import { FileReadStore } from '../../src/store/file-read-store.js';
import { SourceTextStore } from '../../src/store/source-text-store.js';
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
    policies?: PolicyGate;
  } = {},
): SessionService {
  return new SessionService({
    sessions: new SessionStore(db.pool),
    lifecycle: new SessionLifecycle(db.pool, 24),
    terminals: new TerminalLifecycle(db.pool, 60_000),
    admission: new SessionAdmission(db.pool, 24),
    rules: options.rules ?? (async () => ({ perUser: 2, caps: {}, costUsd: null })),
    research: options.research ?? viewOnlyResearch,
    steering: new SteeringStore(db.pool),
    newSessionId: options.newSessionId ?? randomUUID,
    maxQuestionChars: options.maxQuestionChars ?? 2000,
    audit: auditTrail(new AuditStore(db.pool), silentLogger),
    policies: options.policies,
  });
}

/** Every repository over a test database, as the process opens them. */
export function storeOn(db: Database): Store {
  return {
    db,
    sessions: new SessionStore(db.pool),
    feedback: new FeedbackStore(db.pool),
    lifecycle: new SessionLifecycle(db.pool, 24),
    outbox: new OutboxStore(db.pool, 24),
    steering: new SteeringStore(db.pool),
    spend: new SpendStore(db.pool),
    sources: new SourceTextStore(db.pool),
    answers: new AnswerStore(db.pool, 24),
    fileReads: new FileReadStore(db.pool),
    terminals: new TerminalLifecycle(db.pool, 60_000),
    knowledge: new KnowledgeStore(db.pool),
    schedules: new ScheduleStore(db.pool),
    audit: new AuditStore(db.pool),
    policies: new PolicyStore(db.pool),
  };
}

/**
 * What a terminal command runs a session with, on a test database: the
 * room's one runner and use cases over `research`, and a lease of its own.
 */
export function terminalDeps(
  store: Store,
  research: ResearchBackends,
  options: {
    rules?: () => Promise<AdmissionRules>;
    moments?: SessionMoments;
    estimatePlan?: () => Promise<string>;
    editor?: string;
    logger?: Logger;
  } = {},
): TerminalRunDeps & { maxQuestionChars: number } {
  const logger = options.logger ?? silentLogger;
  const owner = `cli:test:${randomUUID().slice(0, 8)}`;
  const reader = new DocumentReader(READ_DEFAULTS, 1);
  return {
    logger,
    runner: {
      sessions: store.sessions,
      lifecycle: store.lifecycle,
      research,
      moments: options.moments,
      files: { sources: store.sources, reads: store.fileReads, reader, fetchers: { cli: localFileFetcher } },
    },
    service: testService(store.db, { research, rules: options.rules }),
    lease: new TerminalLease(
      new SessionLeases(store.db.pool, owner, 60_000, ['cli']),
      store.terminals,
      60_000,
      logger,
    ),
    requester: 'ann',
    maxQuestionChars: 2000,
    estimatePlan: options.estimatePlan,
    editor: options.editor,
  };
}

/** A stored session's checkpoint read as the agents backend's state. */
export async function agentsState(
  store: { loadCheckpoint(id: string): Promise<Checkpoint | null> },
  id: string,
): Promise<SessionState | null> {
  return (await store.loadCheckpoint(id)) as SessionState | null;
}

/** Deleting reports on a test database, with Slack's removals and an audit trail, as the process builds it. */
export function testDeletion(db: Database, log: Logger = silentLogger): ReportDeletion {
  return new ReportDeletion({
    pool: db.pool,
    sessions: new SessionStore(db.pool),
    erase: slackErase,
    deliveryDeadlineHours: 24,
    audit: auditTrail(new AuditStore(db.pool), log),
    log,
  });
}

/** Retention's pass over a test database (deletes past `days`, in Slack too). */
export function testRetention(db: Database, days: number): Promise<number> {
  return applyRetention(db.pool, new SessionStore(db.pool), days, { deletion: testDeletion(db) });
}
