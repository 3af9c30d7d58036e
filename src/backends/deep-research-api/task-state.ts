import type { ResearchWork } from '../../engine/research-work.js';
import type { AgentRecord, SessionState } from '../../engine/session-state.js';

/**
 * One task of a task-graph research (the deep-research backend): its place in
 * the graph, the hosted request running it (checkpointed the moment its id
 * is known, so a resumed session re-attaches to it) and its result.
 */
export interface ResearchTask {
  id: string;
  query: string;
  /** Higher runs first among the tasks that may run. */
  priority: number;
  dependsOn: string[];
  /** `creating`: its request was being sent; a resumed session does not send it again. */
  status: 'pending' | 'creating' | 'running' | 'done' | 'failed' | 'cancelled';
  /** What the hosted model was told to do, written for this task once. */
  instructions?: string;
  responseId?: string;
  /** When its request was created: its time limit counts from here. */
  createdAt?: number;
  /** The hosted model's answer, its citations as the session's source numbers. */
  result?: string;
  sources?: number[];
  /** Searches and reasoning already shown as progress (hosted item ids). */
  shown?: string[];
  error?: string;
}

/** What the task graph keeps in the session's checkpoint (`backendState`). */
export interface TaskGraphState {
  tasks?: ResearchTask[];
}

/**
 * The session's task graph, read from its backend state. A checkpoint written
 * before backends kept their own state holds the tasks at its top level: they
 * move into the backend state the first time they are read.
 */
export function taskGraph(state: SessionState): TaskGraphState {
  const legacy = state as SessionState & { tasks?: ResearchTask[] };
  state.backendState ??= {};
  const own = state.backendState as TaskGraphState;
  if (legacy.tasks && !own.tasks) own.tasks = legacy.tasks;
  delete legacy.tasks;
  return own;
}

/** The task graph as the engine's phases read a research: findings from finished tasks, failures named by task. */
export const TASK_WORK: ResearchWork = {
  noun: 'research task',
  check: 'the deep-research API (DEEP_RESEARCH_MODEL and your OpenAI account)',
  findings: (state) =>
    (taskGraph(state).tasks ?? []).flatMap((t) =>
      t.status === 'done' && t.result ? [{ agentId: t.id, task: t.query, report: t.result }] : [],
    ),
  records: (state) =>
    (taskGraph(state).tasks ?? []).flatMap((t): AgentRecord[] =>
      t.status === 'done' || t.status === 'failed'
        ? [
            {
              id: t.id,
              toolCallId: '',
              task: t.query,
              status: t.status,
              sources: t.sources?.length ?? 0,
              ...(t.error ? { error: t.error } : {}),
            },
          ]
        : [],
    ),
};
