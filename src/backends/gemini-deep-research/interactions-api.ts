import { retryDelayMs, sleep } from '../../http/retry-delay.js';
import { ConfigError, ProviderError } from '../../ports/errors.js';
import type { Logger } from '../../ports/logger.js';
import { redactSecrets, urlWithoutSecrets } from '../../redact-secrets.js';
import { type InteractionView, readInteraction } from './interaction-view.js';

export interface InteractionsApiOptions {
  /** Where the Gemini API is (https://generativelanguage.googleapis.com unless GEMINI_BASE_URL). */
  baseURL: string;
  apiKey: string;
  maxRetries: number;
  logger: Logger;
  /** A call waiting longer than this for its answer fails (and is retried, unless it is a create). */
  timeoutMs?: number;
}

/** What starting an agent's interaction sends (`background`: it runs on Google's side for minutes). */
export interface AgentInteraction {
  agent: string;
  input: string;
  previousInteractionId?: string;
  /** The agent proposes a plan and waits for the next turn to approve it. */
  collaborativePlanning: boolean;
}

const API_VERSION = 'v1beta';

/**
 * Google's Interactions API (`/v1beta/interactions`), as the Deep Research
 * agents use it: create in the background, read by id, cancel. Reads and
 * cancels are retried on 408/429/5xx and lost connections; a create is sent
 * once: an answer lost on the way may mean a request that runs (and is paid
 * for), so it is not sent again.
 */
export class InteractionsApi {
  constructor(private readonly options: InteractionsApiOptions) {}

  create(request: AgentInteraction, signal?: AbortSignal): Promise<InteractionView> {
    return this.call('create', 'POST', '/interactions', signal, {
      agent: request.agent,
      input: request.input,
      background: true,
      store: true,
      ...(request.previousInteractionId ? { previous_interaction_id: request.previousInteractionId } : {}),
      agent_config: {
        type: 'deep-research',
        collaborative_planning: request.collaborativePlanning,
        thinking_summaries: 'auto',
      },
    });
  }

  get(id: string, signal?: AbortSignal): Promise<InteractionView> {
    return this.call('read', 'GET', `/interactions/${encodeURIComponent(id)}`, signal);
  }

  async cancel(id: string): Promise<void> {
    try {
      await this.call('cancel', 'POST', `/interactions/${encodeURIComponent(id)}/cancel`, undefined, {});
    } catch (error) {
      // Already ended (or already cancelled): nothing is left to stop.
      if (error instanceof ProviderError && (error.status === 400 || error.status === 409)) return;
      throw error;
    }
  }

  private async call(
    what: 'create' | 'read' | 'cancel',
    method: 'GET' | 'POST',
    path: string,
    signal: AbortSignal | undefined,
    body?: unknown,
  ): Promise<InteractionView> {
    const url = `${this.options.baseURL.replace(/\/+$/, '')}/${API_VERSION}${path}`;
    for (let attempt = 0; ; attempt += 1) {
      let headers: Headers | undefined;
      try {
        const response = await fetch(url, {
          method,
          headers: {
            'x-goog-api-key': this.options.apiKey,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.any([
            ...(signal ? [signal] : []),
            AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
          ]),
        });
        headers = response.headers;
        const answer = await response.text();
        if (!response.ok) throw this.refused(what, response.status, answer);
        try {
          return readInteraction(JSON.parse(answer));
        } catch (error) {
          throw new ProviderError(
            'hosted_garbled',
            `The Gemini API answered a ${what} with something that is not an interaction (${answer.slice(0, 120)})`,
            what !== 'create',
            { cause: error },
          );
        }
      } catch (raw) {
        if (signal?.aborted) throw signal.reason;
        const error = this.classify(raw, what);
        if (!(error instanceof ProviderError && error.retryable) || attempt >= this.options.maxRetries)
          throw error;
        const delay = retryDelayMs(attempt, headers);
        this.options.logger.warn(
          { what, attempt: attempt + 1, delayMs: delay, code: error.code },
          'Gemini API call failed; retrying',
        );
        await sleep(delay, signal);
      }
    }
  }

  private refused(what: string, status: number, answer: string): ConfigError | ProviderError {
    const said = redactSecrets(errorMessage(answer), [this.options.apiKey]).slice(0, 300);
    if (status === 401 || status === 403)
      return new ConfigError(
        'hosted_auth',
        `The Gemini API rejected the key (HTTP ${status}): check GEMINI_API_KEY (a key from Google AI Studio).`,
      );
    if (status === 404 && what === 'create')
      return new ConfigError(
        'hosted_model_not_found',
        `The Gemini API does not offer the agent GEMINI_AGENT names (HTTP 404: ${said}): set GEMINI_AGENT to deep-research-preview-04-2026 or deep-research-max-preview-04-2026.`,
      );
    const retryable = status === 408 || status === 429 || status >= 500;
    return new ProviderError(
      status === 429 ? 'hosted_rate_limited' : 'hosted_http_error',
      `The Gemini API answered HTTP ${status} to a ${what}: ${said}`,
      // A create refused with 429/5xx did not start: sending it again is safe.
      retryable,
      { status },
    );
  }

  private classify(error: unknown, what: string): ConfigError | ProviderError {
    if (error instanceof ConfigError || error instanceof ProviderError) return error;
    const message = redactSecrets(error instanceof Error ? error.message : String(error), [
      this.options.apiKey,
    ]).slice(0, 300);
    if (what === 'create' && !notSent(error))
      return new ProviderError(
        'hosted_create_unconfirmed',
        `the request to the Gemini API may have started but its answer was lost (${message}); it was not sent again so it is not paid for twice`,
        false,
        { cause: error },
      );
    return new ProviderError(
      'hosted_connection',
      `Could not reach the Gemini API at ${urlWithoutSecrets(this.options.baseURL)}: ${message}`,
      true,
      { cause: error },
    );
  }
}

/** Connection errors that happen before a request leaves: sending it again cannot pay twice. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function notSent(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT.has(code)) return true;
  }
  return false;
}

/** Google's error body (`{"error":{"message":…}}`), else the start of whatever came. */
function errorMessage(answer: string): string {
  try {
    const parsed = JSON.parse(answer) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // Not JSON: said as it came.
  }
  return answer.trim() || 'no details';
}
