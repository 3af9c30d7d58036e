import type { AgentActivity, ResearchEvent } from './research.js';

export interface AgentProgress {
  id: string;
  task: string;
  status: 'running' | 'done' | 'failed';
  activity?: AgentActivity;
  sources?: number;
  reason?: string;
  /** Pages it read in full, first read first, without repeats. */
  read?: { url: string; title: string }[];
}

/** What a live progress view shows; surfaces fold engine events into it and render it their own way. */
export interface Progress {
  phase: 'clarify' | 'plan' | 'research' | 'report' | 'done';
  cycle: number;
  maxCycles: number;
  agents: AgentProgress[];
  sources: number;
  /** What a check of the research's own work is doing or found (until the phase changes). */
  checking?: string;
}

export function initialProgress(): Progress {
  return { phase: 'clarify', cycle: 0, maxCycles: 0, agents: [], sources: 0 };
}

export function reduceProgress(progress: Progress, event: ResearchEvent): Progress {
  const agent = (id: string, change: Partial<AgentProgress>): AgentProgress[] =>
    progress.agents.map((a) => (a.id === id ? { ...a, ...change } : a));
  switch (event.type) {
    case 'phase':
      return { ...progress, phase: event.phase, checking: undefined };
    case 'checking':
      return { ...progress, checking: event.text };
    case 'cycle':
      return { ...progress, cycle: event.cycle, maxCycles: event.maxCycles };
    case 'agent_started':
      return {
        ...progress,
        agents: [...progress.agents, { id: event.agentId, task: event.task, status: 'running' }],
      };
    case 'agent_activity':
      return { ...progress, agents: agent(event.agentId, { activity: event.activity }) };
    case 'agent_done':
      return { ...progress, agents: agent(event.agentId, { status: 'done', sources: event.sources }) };
    case 'agent_read': {
      const known = progress.agents.find((a) => a.id === event.agentId)?.read ?? [];
      const fresh = event.pages.filter((p, i, all) =>
        [...known, ...all.slice(0, i)].every((k) => k.url !== p.url),
      );
      return { ...progress, agents: agent(event.agentId, { read: [...known, ...fresh] }) };
    }
    case 'agent_failed':
      return { ...progress, agents: agent(event.agentId, { status: 'failed', reason: event.reason }) };
    case 'source_added':
      return { ...progress, sources: progress.sources + 1 };
    case 'report_done':
      return { ...progress, phase: 'done', checking: undefined };
    default:
      return progress;
  }
}

/** "searching "x", "y"" / "reading example.com/…" for one agent's current step. */
export function describeActivity(activity: AgentActivity | undefined): string {
  if (!activity) return 'starting';
  switch (activity.kind) {
    case 'thinking':
      return activity.about ? `thinking: ${activity.about}` : 'thinking';
    case 'searching':
      return `searching ${activity.queries.map((q) => `"${q}"`).join(', ')}`;
    case 'searching_internal':
      return `searching the knowledge base for ${activity.queries.map((q) => `"${q}"`).join(', ')}`;
    case 'reading':
      return `reading ${activity.urls.join(', ')}`;
    case 'writing':
      return 'writing findings';
  }
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
