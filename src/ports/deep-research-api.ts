/**
 * A hosted deep-research model (OpenAI's `o4-mini-deep-research` /
 * `o3-deep-research` on the Responses API): a request runs in the
 * background for minutes; its state is read by polling.
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
  maxToolCalls?: number;
}

/** A search, a page opened or a find in a page, as the hosted model reported it. */
export interface HostedSearch {
  id: string;
  kind: 'search' | 'open_page' | 'find_in_page';
  query?: string;
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
}
