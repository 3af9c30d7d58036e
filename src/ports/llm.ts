/**
 * The model port. The engine speaks this shape; `src/llm/` adapts it to an
 * OpenAI-compatible server, on the Responses API or Chat Completions.
 */

export type ToolChoice = 'auto' | 'required' | 'none';

/** A tool call as the model produced it: arguments stay raw JSON so the engine can validate them. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A reasoning model's reasoning for one turn, sealed by the server: opaque to
 * the engine, which keeps it with the turn's message so the model's next turn
 * of the same conversation continues from it. Servers that cannot take it
 * back (Chat Completions) ignore it, so a history with or without it is valid
 * on either.
 */
export interface CarriedReasoning {
  id: string;
  encrypted: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: CarriedReasoning[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** Which model, and whether it reasons natively (no think_tool, fewer cycles, other token limits). */
export interface ModelSpec {
  name: string;
  reasoning: boolean;
}

/** Which step of a session a call belongs to: for usage per phase, logs and scripted tests. */
export type LlmPurpose =
  | 'clarify'
  | 'plan'
  | 'orchestrator'
  | 'agent'
  | 'agent_report'
  | 'final_report'
  | 'report_merge'
  /** Deep-research backend: the instructions a task is sent with, the task itself on the hosted model, and a draft compressed to fit. */
  | 'task_instructions'
  | 'deep_research'
  | 'report_compress'
  /** Whether the findings cover the plan, before the report; whether the sources say what the report cites them for, after. */
  | 'coverage_check'
  | 'citation_check'
  /** A claim's key terms in the language of a source in another, to find the place there. */
  | 'citation_terms'
  /** A reader's question about a finished report, answered from its kept sources. */
  | 'report_question'
  /** Whether a new question asks what an earlier report answers (before it is offered for reuse). */
  | 'same_question'
  /** The series and comparisons of a finished report's cited figures, as charts. */
  | 'report_charts'
  /** The few tokens `deep-research doctor` spends to learn which API the server serves a model on. */
  | 'api_check';

export interface LlmRequest {
  model: ModelSpec;
  purpose: LlmPurpose;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** Upper bound for one attempt; retries stop when `signal` aborts. */
  timeoutMs: number;
  signal?: AbortSignal;
  onTextDelta?: (delta: string) => void;
  /**
   * Ask for JSON matching this schema (structured output, strict). Servers
   * without it answer free text: callers put the schema in the prompt too and
   * validate what comes back.
   */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Of the input, tokens the server answered from its prompt cache (when it says). */
  cachedInputTokens?: number;
  /** Of the output, tokens the model spent reasoning (when it says): billed as output. */
  reasoningTokens?: number;
}

export interface LlmResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: string;
  /** The model's reasoning, to keep with this turn's assistant message (Responses API, reasoning models). */
  reasoning?: CarriedReasoning[];
}

export interface Llm {
  complete(request: LlmRequest): Promise<LlmResponse>;
}
