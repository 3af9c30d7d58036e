import type { FinalReport } from '../ports/report.js';
import type {
  Checkpoint,
  ResearchBackend,
  ResearchOutcome,
  ResearchRun,
  SessionView,
} from '../ports/research.js';
import { answerClarification, continueResearch, newSession, runSession } from './run-session.js';
import type { EngineBase } from './session-context.js';
import type { SessionState } from './session-state.js';
import type { EngineSettings } from './settings.js';

/**
 * The engine's own research (an orchestrator dispatching research agents) as
 * a backend. Its adapters are built when a run first needs them: starting,
 * answering or viewing a session does not.
 */
export function agentsBackend(engine: () => Promise<EngineBase>, settings: EngineSettings): ResearchBackend {
  return {
    name: 'agents',
    begin: (sessionId, request) => newSession(sessionId, request),
    answer: (checkpoint, answer) => answerClarification(stateOf(checkpoint), answer),
    withPlan: (checkpoint, plan) => ({ ...stateOf(checkpoint), plan }),
    continueFrom: (finished, sessionId, report: FinalReport | null) =>
      continueResearch(stateOf(finished), sessionId, report),
    view: (checkpoint) => agentsView(stateOf(checkpoint)),
    async run(run: ResearchRun): Promise<ResearchOutcome> {
      const limit = run.spendLimitUsd;
      const outcome = await runSession(
        {
          ...(await engine()),
          logger: run.logger,
          emit: run.emit,
          saveCheckpoint: run.saveCheckpoint,
          steering: run.steering,
        },
        limit === undefined ? settings : { ...settings, spendLimitUsd: limit },
        stateOf(run.checkpoint),
        { signal: run.signal },
      );
      const { state, ...rest } = outcome;
      return { ...rest, checkpoint: state, view: agentsView(state) };
    },
  };
}

/** This backend's checkpoints are its session state. */
function stateOf(checkpoint: Checkpoint): SessionState {
  if (checkpoint.backend !== 'agents')
    throw new Error(`a ${checkpoint.backend} checkpoint was given to the agents backend`);
  return checkpoint as SessionState;
}

export function agentsView(state: SessionState): SessionView {
  return {
    backend: 'agents',
    question: state.request.question,
    clarification: state.request.clarification ?? null,
    plan: state.plan,
    phase: state.phase,
    startedAt: state.startedAt,
    reportVersion: state.reportVersion ?? 1,
    usage: state.usage,
    report: state.report,
    sourcesSeen: state.sources.length,
  };
}
