/**
 * Glossary
 * - session: one research run for one question (plus its clarification).
 * - cycle: one orchestrator model call and the agents it dispatched.
 * - agent: a research sub-run that only sees its task string and writes an intermediate report.
 * - source: a web page or knowledge-base document, numbered once per session when first shown to an agent.
 * - checkpoint: this state, saved after every step; a session resumes from it.
 */
import type { ChatMessage } from '../ports/llm.js';
import type { FinalReport, Source, StopReason } from '../ports/report.js';
import type { Phase, ResearchRequest, Usage } from '../ports/research.js';

export type { FinalReport, PartialReason, Source, StopReason } from '../ports/report.js';
export type { Phase, ResearchRequest } from '../ports/research.js';

export const STATE_VERSION = 1;

export interface AgentRecord {
  id: string;
  /** The orchestrator's call that dispatched it; its tool result in the history is the agent's report. */
  toolCallId: string;
  task: string;
  status: 'done' | 'failed';
  sources: number;
  error?: string;
}

export interface SessionState {
  version: typeof STATE_VERSION;
  /** Which research backend wrote this checkpoint (absent in checkpoints written before it was recorded). */
  backend: string;
  sessionId: string;
  request: ResearchRequest;
  phase: Phase;
  /** When research began (after clarification): the time budget counts from here, across resumes. */
  startedAt: number | null;
  plan: string | null;
  /** The orchestrator conversation after its system prompt. */
  history: ChatMessage[];
  cycle: number;
  sources: Source[];
  /** Normalised query → source numbers, so a repeated search anywhere in the session is served from here. */
  searches: Record<string, number[]>;
  /** Canonical URLs of pages read so far. */
  readUrls: string[];
  /**
   * Calls to a dependency that failed (by dependency: "web search"), with the
   * last cause and whether a call to it ever answered, so "found nothing" and
   * "could not search" stay different outcomes. Absent in checkpoints written
   * before it existed.
   */
  failures?: Record<string, { count: number; last: string; worked?: boolean }>;
  /** Tool servers (MCP) whose calls failed during research, with the last failure: named in the report. */
  serverFailures?: Record<string, string>;
  agents: AgentRecord[];
  /**
   * What the backend researching the session keeps beyond this skeleton (a
   * hosted agent's request ids): its own JSON, opaque to the engine.
   */
  backendState?: unknown;
  /** The report's version: 2 and up after [Research more] (absent: 1). */
  reportVersion?: number;
  /** Cycles of earlier versions: this version's allowance counts from here. */
  cycleBase?: number;
  /** Pages read by earlier versions: not fetched again (their findings are in the history). */
  earlierReads?: string[];
  /** The sessions of earlier versions, latest first: their kept source texts are this one's too. */
  earlierSessions?: string[];
  /** The previous version's sources (keys), in its numbering: they keep their numbers. */
  earlierCitations?: string[];
  /** The last requester's note handed to the orchestrator (absent before the first). */
  steeringSeen?: number;
  /** This version's findings were checked against the plan (once: a thin step earns one more cycle, not a loop). */
  coverageChecked?: boolean;
  /** Plan steps the findings leave thin when no budget was left to research them: the report names them. */
  thinSteps?: string[];
  toolCalls: number;
  usage: Usage;
  stopReason: StopReason | null;
  report: FinalReport | null;
}
