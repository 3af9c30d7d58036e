import { engineBackend } from '../../engine/engine-backend.js';
import { continueResearch, type ResearchMethod } from '../../engine/run-session.js';
import type { EngineBase } from '../../engine/session-context.js';
import type { SessionState } from '../../engine/session-state.js';
import type { EngineSettings } from '../../engine/settings.js';
import type { DeepResearchApi } from '../../ports/deep-research-api.js';
import type { FinalReport } from '../../ports/report.js';
import type { ResearchBackend } from '../../ports/research.js';
import { planTasks } from './plan-tasks.js';
import type { DeepResearchSettings } from './run-task.js';
import { runTasks } from './run-tasks.js';
import { TASK_WORK } from './task-state.js';

/**
 * The second design: the question planned as a graph of tasks with
 * priorities and dependencies, each researched by a hosted deep-research
 * model (OpenAI's Responses API, in the background), the results
 * synthesised into the report as the agents' findings are.
 */
export function deepResearchBackend(
  engine: () => Promise<EngineBase>,
  settings: EngineSettings,
  api: DeepResearchApi,
  dr: DeepResearchSettings,
): ResearchBackend {
  const method: ResearchMethod = {
    clarifiesFirst: false,
    searchesItself: true,
    plan: (ctx) => planTasks(ctx, dr.maxTasks),
    research: (ctx) => runTasks(ctx, api, dr),
    work: TASK_WORK,
  };
  return engineBackend('deep-research-api', method, engine, settings, continueTasks);
}

/** The earlier report's share of a continued plan's request. */
const EARLIER_REPORT_CHARS = 20_000;

/**
 * [Research more] on the task graph: a new plan of tasks that goes beyond the
 * delivered report (given to the planner as the earlier research), with every
 * source keeping its number.
 */
function continueTasks(finished: SessionState, sessionId: string, report: FinalReport | null): SessionState {
  const next = continueResearch(finished, sessionId, report);
  // The finished graph stays with the finished session (a checkpoint from before backendState kept it here).
  delete (next as SessionState & { tasks?: unknown }).tasks;
  const earlier = (report?.markdown ?? '').slice(0, EARLIER_REPORT_CHARS);
  return {
    ...next,
    phase: 'plan',
    plan: null,
    backendState: {},
    history: [],
    request: {
      ...next.request,
      skipClarification: true,
      previousResearch: `This report was already delivered; plan tasks that deepen and extend it, not repeat it.\n\n${earlier}`,
    },
  };
}
