import type { Finding, ResearchWork } from '../research-work.js';
import type { SessionState } from '../session-state.js';

export type { Finding };

/** What research found: the backend's own work's findings, else the reports of agents that found something, in dispatch order. */
export function extractFindings(state: SessionState, work?: ResearchWork): Finding[] {
  if (work) return work.findings(state);
  const results = new Map<string, string>();
  for (const m of state.history) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  return state.agents
    .filter((a) => a.status === 'done' && a.sources > 0 && results.has(a.toolCallId))
    .map((a) => ({ agentId: a.id, task: a.task, report: results.get(a.toolCallId)! }));
}

export function hasFindings(state: SessionState): boolean {
  return extractFindings(state).length > 0;
}
