import type { Source, StopReason } from './session-state.js';
import type { Usage } from './usage.js';

export type AgentActivity =
  | { kind: 'thinking' }
  | { kind: 'searching'; queries: string[] }
  | { kind: 'searching_internal'; queries: string[] }
  | { kind: 'reading'; urls: string[] }
  | { kind: 'writing' };

/** What the engine reports as it runs; surfaces (CLI, Slack) and the store subscribe. */
export type ResearchEvent =
  | { type: 'phase'; phase: 'clarify' | 'plan' | 'research' | 'report' }
  | { type: 'clarification'; questions: string }
  | { type: 'plan_delta'; text: string }
  /** `review`: research waits for the requester to start it (or edit the plan). */
  | { type: 'plan_done'; plan: string; review?: boolean }
  | { type: 'cycle'; cycle: number; maxCycles: number }
  | { type: 'thinking'; text: string }
  | { type: 'agent_started'; agentId: string; task: string }
  | { type: 'agent_activity'; agentId: string; activity: AgentActivity }
  | { type: 'agent_done'; agentId: string; sources: number }
  /** Pages an agent read in full (one tool step's worth). */
  | { type: 'agent_read'; agentId: string; pages: { url: string; title: string }[] }
  | { type: 'agent_failed'; agentId: string; reason: string }
  | { type: 'source_added'; source: Source }
  /** The requester's note, handed to the orchestrator. */
  | { type: 'steering'; text: string }
  | { type: 'research_stopped'; reason: StopReason }
  | { type: 'report_delta'; text: string }
  | { type: 'report_done'; markdown: string }
  | { type: 'usage'; usage: Usage; costUsd: number | null }
  | { type: 'error'; message: string; fault: string };

export type EmitEvent = (event: ResearchEvent) => void;
