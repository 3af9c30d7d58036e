/**
 * Research as a port: how a session is researched is a backend's business
 * (today the engine's own agents). The session room, the worker and every
 * surface (Slack, the terminal) talk to a backend through this, and read a
 * session through its backend-neutral view, never a backend's own state.
 */
import type { LlmPurpose } from './llm.js';
import type { Logger } from './logger.js';
import type { FinalReport, Source, StopReason } from './report.js';

/** A file shared with a question: kept with the session (`key`, `file:<id>`), cited by its name and `url`. */
export interface SharedFile {
  key: string;
  name: string;
  /** Where a reader opens it (the file's Slack permalink). */
  url?: string;
  /** Where the surface reads it from before the first run (Slack's private download address). */
  from: string;
  size: number;
  /** What was left out of it (its text cut at READ_MAX_CHARS). */
  note?: string;
}

/** The files a question came with: those research reads, and those it does not, with why. */
export interface SharedFiles {
  given: SharedFile[];
  skipped: { name: string; reason: string }[];
}

export interface ResearchRequest {
  question: string;
  /** The previous question, plan and report when this is a follow-up in the same thread. */
  previousResearch?: string;
  /**
   * The discussion the question comes from (the earlier messages of the
   * conversation it was asked in, attributed, oldest first): context from the
   * people asking, never instructions.
   */
  discussion?: { text: string; messages: number };
  /** Files shared with the question: read into the session before research, searched with `thread_files`. */
  files?: SharedFiles;
  skipClarification?: boolean;
  clarification?: { questions: string; answer: string | null };
  /** The requester reviews the plan before research starts; it starts by itself after `seconds`. */
  planReview?: { seconds: number };
}

/**
 * A backend's saved state, written after every step so a session resumes
 * from it: opaque to everyone but the backend that wrote it (the store keeps
 * it as JSON and knows only whose it is).
 */
export interface Checkpoint {
  /** The backend that wrote it (backends/backend-list.ts names them). */
  readonly backend: string;
  readonly sessionId: string;
}

/** `review`: the plan waits for the requester (or its time) before research starts. */
export type Phase = 'clarify' | 'plan' | 'review' | 'research' | 'report' | 'done';

/** What a person and the surfaces they use may know of a session, whichever backend researches it. */
export interface SessionView {
  backend: string;
  question: string;
  clarification: { questions: string; answer: string | null } | null;
  plan: string | null;
  phase: Phase;
  /** When research began (the time budget's start), or null before. */
  startedAt: number | null;
  /** 1, then 2 and up after [Research more]. */
  reportVersion: number;
  usage: Usage;
  report: FinalReport | null;
  /** Sources shown to research so far. */
  sourcesSeen: number;
  /** Earlier messages of the conversation the research was given as context (0: none). */
  discussionMessages: number;
  /** The files shared with the question, if any. */
  files: SharedFiles | null;
  /** The sessions this one continues ([Research more]), newest first: their kept sources and files are its own. */
  continues: string[];
}

export interface ModelUsage {
  purpose: LlmPurpose;
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Of the input, tokens served from the prompt cache (absent in older checkpoints). */
  cachedInputTokens?: number;
  /** Of the output, tokens spent reasoning, when the server says (absent in older checkpoints). */
  reasoningTokens?: number;
}

export interface Usage {
  models: ModelUsage[];
  webSearches: number;
  internalSearches: number;
  /** Pages read with readable content. */
  pagesRead: number;
  /** Page reads that were refused, failed or gave nothing readable (absent in older checkpoints). */
  pagesFailed?: number;
  /** Web searches a hosted deep-research model made (billed by its provider per call). */
  hostedSearches?: number;
}

export type AgentActivity =
  /** `about`: what a hosted model's reasoning summary says it is working on. */
  | { kind: 'thinking'; about?: string }
  | { kind: 'searching'; queries: string[] }
  | { kind: 'searching_internal'; queries: string[] }
  | { kind: 'reading'; urls: string[] }
  | { kind: 'writing' };

/** What research reports as it runs; surfaces (CLI, Slack) and the store subscribe. */
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
  /** A check of the research's own work (the plan's coverage, the report's citations), in words. */
  | { type: 'checking'; text: string }
  | { type: 'report_delta'; text: string }
  | { type: 'report_done'; markdown: string }
  /** `costUsd`: at the price table, null when a model has no price; `spendUsd`: what counts against the caps. */
  | { type: 'usage'; usage: Usage; costUsd: number | null; spendUsd: number }
  | { type: 'error'; message: string; fault: string };

export type EmitEvent = (event: ResearchEvent) => void;

/** Where a session came to rest after a run, with its checkpoint and view there. */
export type ResearchOutcome = (
  | { kind: 'needs_clarification'; questions: string }
  /** The plan is written; research starts when the requester says so or `seconds` have passed. */
  | { kind: 'needs_plan_review'; plan: string; seconds: number }
  | { kind: 'done'; report: FinalReport }
  /** `found` is what the session had gathered when it was cancelled. */
  | { kind: 'cancelled'; found: FinalReport }
) & { checkpoint: Checkpoint; view: SessionView };

/** One run of a session, from its checkpoint to its next resting point. */
export interface ResearchRun {
  checkpoint: Checkpoint;
  emit: EmitEvent;
  /** Called after every step; a throw (e.g. the lease was lost) stops the run. */
  saveCheckpoint: (checkpoint: Checkpoint) => Promise<void>;
  /** The requester's notes to the running research after a given note id (none outside a thread). */
  steering?: (afterId: number) => Promise<{ id: number; text: string }[]>;
  /** Aborted: the run stops and returns `cancelled` with what it found. */
  signal: AbortSignal;
  /**
   * Whether an abort hands the session back (the process drains, or lost the
   * session) rather than cancels it: work running outside this process (a
   * hosted request) is then left running for whoever resumes the session.
   */
  handedBack?: () => boolean;
  logger: Logger;
  /** What this run may still spend (the daily caps less what was spent); unset: no cap. */
  spendLimitUsd?: number;
  /** The sources it may read (its channel's policy); unset: every one set up. */
  sources?: SourceLimits;
}

/** Which sources research may read; a backend that cannot keep to them is refused before it starts. */
export interface SourceLimits {
  web: boolean;
  knowledgeBase: boolean;
  threadFiles: boolean;
  /** MCP_SERVERS names, or every one set up. */
  mcpServers: 'all' | string[];
}

/**
 * A way of researching. Everything but `run` is pure: a surface may call
 * them to start, answer, edit or continue a session without running it.
 */
export interface ResearchBackend {
  readonly name: string;
  /** A new session's first checkpoint. */
  begin(sessionId: string, request: ResearchRequest): Checkpoint;
  /** The requester answered the questions (or chose to start without answering: `null`). */
  answer(checkpoint: Checkpoint, answer: string | null): Checkpoint;
  /** A plan under review replaced by the requester's edit. */
  withPlan(checkpoint: Checkpoint, plan: string): Checkpoint;
  /** [Research more]: a new session going on from a finished one, with the report it delivered. */
  continueFrom(finished: Checkpoint, sessionId: string, report: FinalReport | null): Checkpoint;
  view(checkpoint: Checkpoint): SessionView;
  run(run: ResearchRun): Promise<ResearchOutcome>;
}
