import type { FinalReport } from '../ports/report.js';
import type {
  Checkpoint,
  ResearchBackend,
  ResearchOutcome,
  ResearchRequest,
  ResearchRun,
  SessionView,
} from '../ports/research.js';
import { answerClarification, newSession, type ResearchMethod, runSession } from './run-session.js';
import type { EngineBase } from './session-context.js';
import type { SessionState } from './session-state.js';
import type { EngineSettings } from './settings.js';

/**
 * A backend on the engine's session skeleton (clarify, plan, review,
 * research, report, checkpoints as SessionState): `method` says how it plans
 * and researches, `continueFrom` how [Research more] goes on. Its adapters
 * are built when a run first needs them: starting, answering or viewing a
 * session does not.
 */
export function engineBackend(
  name: string,
  method: ResearchMethod,
  engine: () => Promise<EngineBase>,
  settings: EngineSettings,
  continueFrom: (finished: SessionState, sessionId: string, report: FinalReport | null) => SessionState,
): ResearchBackend {
  const stateOf = (checkpoint: Checkpoint): SessionState => {
    if (checkpoint.backend !== name)
      throw new Error(`a ${checkpoint.backend} checkpoint was given to the ${name} backend`);
    return checkpoint as SessionState;
  };
  return {
    name,
    begin: (sessionId, request: ResearchRequest) => newSession(sessionId, request, name),
    answer: (checkpoint, answer) => answerClarification(stateOf(checkpoint), answer),
    withPlan: (checkpoint, plan) => ({ ...stateOf(checkpoint), plan }),
    continueFrom: (finished, sessionId, report) => continueFrom(stateOf(finished), sessionId, report),
    view: (checkpoint) => sessionView(stateOf(checkpoint)),
    async run(run: ResearchRun): Promise<ResearchOutcome> {
      const limit = run.spendLimitUsd;
      const perRun = {
        ...settings,
        ...(limit === undefined ? {} : { spendLimitUsd: limit }),
        ...(run.sources ? { sources: run.sources } : {}),
      };
      const outcome = await runSession(
        {
          ...(await engine()),
          logger: run.logger,
          emit: run.emit,
          saveCheckpoint: run.saveCheckpoint,
          steering: run.steering,
          handedBack: run.handedBack,
        },
        perRun,
        stateOf(run.checkpoint),
        { signal: run.signal, method },
      );
      const { state, ...rest } = outcome;
      return { ...rest, checkpoint: state, view: sessionView(state) };
    },
  };
}

export function sessionView(state: SessionState): SessionView {
  return {
    backend: state.backend,
    question: state.request.question,
    clarification: state.request.clarification ?? null,
    plan: state.plan,
    phase: state.phase,
    startedAt: state.startedAt,
    reportVersion: state.reportVersion ?? 1,
    usage: state.usage,
    report: state.report,
    sourcesSeen: state.sources.length,
    discussionMessages: state.request.discussion?.messages ?? 0,
    files: state.request.files ?? null,
    continues: state.earlierSessions ?? [],
  };
}
