import { randomUUID } from 'node:crypto';
import { configuredBackends } from './backends/backend-list.js';
import { localFileFetcher } from './cli/local-files.js';
import { engineDeps, engineSettings, modelLifecycle, withKnowledgeBase } from './compose.js';
import { reportDeletion } from './compose-store.js';
import type { Config } from './config/load-config.js';
import { backendMissing, sharedAccess } from './config/requirements.js';
import { reportQuestions } from './engine/ask/answer-report-question.js';
import { reportComparison } from './engine/compare/compare-reports.js';
import { type Estimate, estimateRun, estimateText } from './engine/estimate.js';
import type { EngineBase } from './engine/session-context.js';
import { threadedExport } from './export/export-thread.js';
import type { ModelLifecycle } from './llm/model-lifecycle.js';
import type { ResponseEndings } from './llm/response-endings.js';
import type { Metrics } from './metrics/metrics.js';
import { type Clock, systemClock } from './ports/clock.js';
import type { DocumentReading } from './ports/document-reading.js';
import { ConfigError } from './ports/errors.js';
import type { Logger } from './ports/logger.js';
import { DocumentReader } from './search/read/document-reader.js';
import { type AdmissionRules, SessionAdmission, SpendGate } from './sessions/admission.js';
import { ChannelPolicies } from './sessions/policies/channel-policies.js';
import { PolicyGate, type Standing } from './sessions/policies/policy-gate.js';
import type { GivenFileDeps } from './sessions/read-given-files.js';
import { auditTrail } from './sessions/records/audit-store.js';
import { pastRuns } from './sessions/records/past-runs.js';
import type { Store } from './sessions/records/store.js';
import { ReportAsking } from './sessions/report-asking.js';
import type { ReportDeletion } from './sessions/report-deletion.js';
import { ReportExports } from './sessions/report-exports.js';
import { ReportLibrary } from './sessions/report-library.js';
import { type ResearchBackends, researchBackends } from './sessions/research-backends.js';
import type { SessionRunDeps } from './sessions/run-stored-session.js';
import { ScheduleService } from './sessions/schedules/schedule-service.js';
import { whatChanged } from './sessions/schedules/what-changed.js';
import { SessionMoments } from './sessions/session-moments.js';
import { SessionService } from './sessions/session-service.js';

/** The session room as a process uses it, built once from the config and the store. */
export interface SessionsRoom {
  research: ResearchBackends;
  service: SessionService;
  /** Questions asked of finished reports. */
  asking: ReportAsking;
  /** Finished reports found by words, as each person may see them. */
  library: ReportLibrary;
  /** Research that repeats: added, listed, paused, resumed, removed (runs: scheduled-runs.ts). */
  schedules: ScheduleService;
  /** Channel policies: read, set and cleared by admins and the people they name. */
  policies: ChannelPolicies;
  /** Deleting reports for real (in Slack too): by their requester, an admin, or retention. */
  deletion: ReportDeletion;
  /** Reports as PDF and Word files, built once per version and kept. */
  exports: ReportExports;
  moments: SessionMoments;
  /** What running a stored session needs (the workers' and the terminal's one runner). */
  run: SessionRunDeps & { files: GivenFileDeps };
  /** The pre-flight estimate as a plan under review shows it. */
  estimatePlan: () => Promise<string>;
  /** The research adapters (with this database's knowledge base), built on first use; fails when there is nothing to research with. */
  engine: () => Promise<EngineBase>;
  /** The configured models' lifecycle (listed, shutting down, refused), for start-up, /healthz and doctor. */
  models: ModelLifecycle;
  /** Where webhook notices of ended hosted requests go (set only when this process takes them). */
  endings?: ResponseEndings;
  /** The process's one reader of untrusted documents (pages, files, uploads), within FILE_MAX_MB and READ_*. */
  reader: DocumentReading;
}

export interface RoomOptions {
  /** The engine's adapters; built from the config unless given (tests give a scripted model). */
  engine?: EngineBase;
  metrics?: Metrics;
  /** A terminal's first run fails at once, in one line, when the model server cannot be reached. */
  unreachableIsFatal?: boolean;
  newSessionId: () => string;
  /**
   * Hosted requests' ends arrive as webhook notices in this process (serve, or
   * a worker hearing them through Postgres): polls only refresh progress.
   */
  endings?: ResponseEndings;
  /** The time schedules are read in (tests move it). */
  clock?: Clock;
  /** Whether a person is an admin or in a user group (Slack's answer), for channel policies that name them. */
  standing?: Standing;
}

export function composeSessions(
  config: Config,
  logger: Logger,
  store: Store,
  options: RoomOptions,
): SessionsRoom {
  const settings = engineSettings(config);
  const models = modelLifecycle(config, { logger });
  const reader = new DocumentReader(config.reading);
  const { current, all } = configuredBackends(config.research);
  let built: Promise<EngineBase> | undefined;
  const engine = () => {
    built ??= (async () => {
      const missing = backendMissing(config);
      if (missing) throw new ConfigError('missing_env', missing);
      const base = options.engine ?? engineDeps(config, logger, { ...options, models, reader });
      return withKnowledgeBase(base, store, { searchRequired: !current.plugin.searchesItself });
    })();
    return built;
  };
  // Every backend is registered, so a session stays with the backend that started it; RESEARCH_BACKEND picks new ones'.
  const deps = { engine, settings, logger, shared: sharedAccess(config), models, endings: options.endings };
  const backends = all.map((b) => b.plugin.build(deps, b.settings));
  const research = researchBackends(backends.find((b) => b.name === current.plugin.name)!, backends);
  // New sessions are estimated from earlier runs of the backend that will research them.
  const estimate = async (): Promise<Estimate> =>
    estimateRun(
      settings,
      await pastRuns(store.db.pool, current.plugin.name),
      current.plugin.costWithoutHistory?.(current.settings),
    );
  const moments = new SessionMoments(store.sessions, research, logger);
  moments.onSettled(({ settled }) => {
    const check = settled.kind === 'done' ? settled.report.citationCheck : undefined;
    if (check) options.metrics?.citationsChecked(check);
  });
  // A scheduled run's end is its schedule's last result; failures in a row pause it.
  moments.onSettled(async ({ session, settled }) => {
    if (settled.kind !== 'done' && settled.kind !== 'failed') return;
    const result = settled.kind === 'done' ? 'report ready' : `failed: ${settled.message}`;
    await store.schedules
      .runEnded(session.id, { failed: settled.kind === 'failed', result })
      .catch((err) => logger.warn({ err, sessionId: session.id }, 'a scheduled run could not be recorded'));
  });
  const audit = auditTrail(store.audit, logger);
  const policyGate = new PolicyGate({
    policies: store.policies,
    standing: options.standing,
    backend: { name: current.plugin.name, searchesWebItself: current.plugin.searchesItself },
    log: logger,
  });
  const service = new SessionService({
    sessions: store.sessions,
    lifecycle: store.lifecycle,
    terminals: store.terminals,
    admission: new SessionAdmission(store.db.pool, config.slack.deliveryDeadlineHours),
    rules: admissionRules(config, estimate),
    research,
    steering: store.steering,
    fileReads: store.fileReads,
    newSessionId: options.newSessionId,
    maxQuestionChars: config.slack.maxQuestionChars,
    audit,
    policies: policyGate,
  });
  const asking = new ReportAsking({
    sessions: store.sessions,
    answers: store.answers,
    questions: reportQuestions(engine, settings),
    gate: new SpendGate(store.db.pool, config.jobs.spendCaps),
    log: logger,
    audit,
    policies: policyGate,
  });
  return {
    research,
    service,
    asking,
    library: new ReportLibrary({ db: store.db.pool, log: logger }),
    schedules: new ScheduleService({
      schedules: store.schedules,
      newId: randomUUID,
      now: () => new Date((options.clock ?? systemClock).now()),
      maxQuestionChars: config.slack.maxQuestionChars,
      minInterval: config.jobs.scheduleMinInterval,
      limits: config.jobs.scheduleLimits,
      audit,
      policies: policyGate,
    }),
    policies: new ChannelPolicies({
      store: store.policies,
      choices: {
        backends: all.map((b) => b.plugin.name),
        mcpServers: config.mcp.servers.map((s) => s.name),
      },
      audit,
    }),
    deletion: reportDeletion(config, store.db.pool, store.sessions, store.audit, logger),
    exports: new ReportExports({
      pool: store.db.pool,
      render: threadedExport(),
      view: (id) => service.view(id),
      log: logger,
    }),
    moments,
    run: {
      sessions: store.sessions,
      lifecycle: store.lifecycle,
      research,
      steering: store.steering,
      spend: { store: store.spend, caps: config.jobs.spendCaps },
      moments,
      // A terminal's given files are on this machine's disk; a process with Slack adds its file host.
      files: {
        sources: store.sources,
        reads: store.fileReads,
        reader,
        fetchers: { cli: localFileFetcher },
        audit,
      },
      whatChanged: whatChanged({
        earlier: (scheduleId, sessionId) => store.schedules.earlierRun(scheduleId, sessionId),
        comparison: reportComparison(engine, settings),
        log: logger,
      }),
    },
    estimatePlan: async () => estimateText(await estimate()),
    engine,
    models,
    reader,
    ...(options.endings ? { endings: options.endings } : {}),
  };
}

const ESTIMATE_REUSE_MS = 10_000;

/** The rules a new session must fit: the per-person limit, today's caps and what a run is estimated to cost. */
function admissionRules(config: Config, estimate: () => Promise<Estimate>): () => Promise<AdmissionRules> {
  // A request's early check and its decision (and a burst of requests) share one reading of past runs.
  let recent: { at: number; costUsd: Promise<[number, number] | null> } | undefined;
  const costUsd = () => {
    if (!recent || Date.now() - recent.at > ESTIMATE_REUSE_MS)
      // Without an estimate nothing is reserved; the caps still count what finished research cost.
      recent = {
        at: Date.now(),
        costUsd: estimate().then(
          (e) => e.spendUsd,
          () => null,
        ),
      };
    return recent.costUsd;
  };
  return async () => ({
    perUser: config.jobs.sessionsPerUser,
    caps: config.jobs.spendCaps,
    costUsd: await costUsd(),
  });
}
