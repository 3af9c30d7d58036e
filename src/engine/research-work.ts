import type { AgentRecord, SessionState } from './session-state.js';

/** One piece of research's findings, as the report is written from them. */
export interface Finding {
  agentId: string;
  task: string;
  report: string;
}

/**
 * What a backend's own research leaves for the engine's phases when it is not
 * the agents' (the task graph's tasks, kept in its `backendState`): the
 * findings the report is written from, the pieces of work whose failures are
 * named, and what to check when all of them failed. Unset: the agents'.
 */
export interface ResearchWork {
  findings(state: SessionState): Finding[];
  records(state: SessionState): AgentRecord[];
  /** What one piece of it is called ("research task"). */
  noun: string;
  /** Where to look when every piece failed ("the deep-research API (…)"). */
  check: string;
}
