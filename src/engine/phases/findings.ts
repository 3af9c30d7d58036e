import type { SessionState } from '../session-state.js';

export interface Finding {
  agentId: string;
  task: string;
  report: string;
}

/** The intermediate reports of agents that found something, in dispatch order. */
export function extractFindings(state: SessionState): Finding[] {
  // A task graph's findings are its finished tasks' answers.
  if (state.tasks)
    return state.tasks.flatMap((t) =>
      t.status === 'done' && t.result ? [{ agentId: t.id, task: t.query, report: t.result }] : [],
    );
  const results = new Map<string, string>();
  for (const m of state.history) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  return state.agents
    .filter((a) => a.status === 'done' && a.sources > 0 && results.has(a.toolCallId))
    .map((a) => ({ agentId: a.id, task: a.task, report: results.get(a.toolCallId)! }));
}

export function hasFindings(state: SessionState): boolean {
  return extractFindings(state).length > 0;
}
