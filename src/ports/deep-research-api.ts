/**
 * Hosted deep research: a reasoning model with the provider's own web search
 * (OpenAI's `gpt-5.5` on the Responses API), one request per task, run in the
 * background for minutes; its state is read by polling, and a provider that
 * sends webhooks can wake the poller when a request ends.
 */

export type HostedStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'incomplete';

export interface HostedRequest {
  model: string;
  /** What the model is told to do (the developer message). */
  instructions: string;
  /** The research question of the task. */
  input: string;
  /** Kept with the request at the provider: which session and task it belongs to. */
  metadata: Record<string, string>;
  /** How hard the model reasons (OpenAI: none, low, medium, high, xhigh). */
  effort: ReasoningEffort;
  maxToolCalls?: number;
}

export type ReasoningEffort = 'none' | 'low' | 'medium' | 'high' | 'xhigh';

/** A search, a page opened or a find in a page, as the hosted model reported it. */
export interface HostedSearch {
  id: string;
  kind: 'search' | 'open_page' | 'find_in_page';
  queries?: string[];
  url?: string;
}

/** A span of the answer that cites a URL (start and end are offsets in `text`). */
export interface HostedCitation {
  url: string;
  title: string;
  start: number;
  end: number;
}

/** Where a hosted request stands, with whatever output it has so far. */
export interface HostedResponse {
  id: string;
  status: HostedStatus;
  text: string;
  citations: HostedCitation[];
  searches: HostedSearch[];
  /** Reasoning summaries, in order. */
  reasoning: string[];
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number; reasoningTokens: number };
  /** Why it failed, or why it is incomplete. */
  error?: string;
}

export interface DeepResearchApi {
  /** Starts a request in the background; answers at once with its id. */
  create(request: HostedRequest, signal?: AbortSignal): Promise<HostedResponse>;
  retrieve(id: string, signal?: AbortSignal): Promise<HostedResponse>;
  cancel(id: string): Promise<void>;
  /**
   * Waits `ms`, or less when the provider says request `id` has ended (a
   * webhook); a provider without such notices just waits. `notifies` says
   * which, so polls can be rarer when they only show progress.
   */
  wait(id: string, ms: number, signal: AbortSignal): Promise<void>;
  readonly notifies: boolean;
}
