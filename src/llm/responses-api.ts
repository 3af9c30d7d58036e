import OpenAI from 'openai';
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { retryDelayMs, sleep } from '../http/retry-delay.js';
import type {
  DeepResearchApi,
  HostedCitation,
  HostedRequest,
  HostedResponse,
  HostedSearch,
} from '../ports/deep-research-api.js';
import { ConfigError, ProviderError } from '../ports/errors.js';
import type { Logger } from '../ports/logger.js';
import { redactSecrets } from '../redact-secrets.js';
import { errorBodyFetch } from './error-body-fetch.js';
import { isModelNotFound, type RefusedModel } from './model-not-found.js';
import type { ResponseEndings } from './response-endings.js';
import { usageOf } from './responses-wire.js';

export interface ResponsesApiOptions {
  apiKey: string;
  baseURL?: string;
  /** Retries of a retrieve or cancel, and of a create the server refused (429, 5xx). */
  maxRetries: number;
  /** Cap for one HTTP call (a background create answers at once; a retrieve is a read). */
  timeoutMs: number;
  logger: Logger;
  fetch?: typeof fetch;
  /** The sentence for a model the server does not serve (which variable to set, to what). */
  refusedModel?: RefusedModel;
  /** Webhook notices of ended requests (OPENAI_WEBHOOK_SECRET); without them, waits are plain sleeps. */
  endings?: ResponseEndings;
}

/** Errors where nothing reached the server: a create may be sent again without paying twice. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The hosted deep-research port on OpenAI's Responses API: `background: true`
 * requests with web search, a reasoning effort and reasoning summaries, read
 * back by polling (woken early by webhooks when they are set up).
 * A create is repeated only when the server refused it or it never left this
 * machine; a create whose answer was lost on the way back is an error
 * (`hosted_create_unconfirmed`) rather than a second, paid, request.
 */
export class ResponsesApi implements DeepResearchApi {
  private readonly client: OpenAI;
  readonly notifies: boolean;

  constructor(private readonly options: ResponsesApiOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      logLevel: 'off',
      timeout: options.timeoutMs,
      fetch: errorBodyFetch(options.fetch),
    });
    this.notifies = Boolean(options.endings);
  }

  wait(id: string, ms: number, signal: AbortSignal): Promise<void> {
    return this.options.endings ? this.options.endings.wait(id, ms, signal) : sleep(ms, signal);
  }

  async create(request: HostedRequest, signal?: AbortSignal): Promise<HostedResponse> {
    try {
      return await this.createOnce(request, signal);
    } catch (error) {
      // A 404 is not retried: it arrives here as the provider error it was classified as.
      const cause = (error as Error).cause;
      if (isModelNotFound(cause) && this.options.refusedModel)
        throw await this.options.refusedModel(request.model, cause);
      throw error;
    }
  }

  private createOnce(request: HostedRequest, signal?: AbortSignal): Promise<HostedResponse> {
    return this.withRetries('create', signal, true, async (signal) =>
      read(
        await this.client.responses.create(
          {
            model: request.model,
            instructions: request.instructions,
            input: request.input,
            background: true,
            store: true,
            // `web_search` (not the legacy `web_search_preview`) is the tool OpenAI documents for new integrations.
            tools: [{ type: 'web_search' }],
            reasoning: { effort: request.effort, summary: 'auto' },
            metadata: request.metadata,
            ...(request.maxToolCalls ? { max_tool_calls: request.maxToolCalls } : {}),
          },
          { signal },
        ),
      ),
    );
  }

  retrieve(id: string, signal?: AbortSignal): Promise<HostedResponse> {
    return this.withRetries('retrieve', signal, false, async (signal) =>
      read(await this.client.responses.retrieve(id, {}, { signal })),
    );
  }

  async cancel(id: string): Promise<void> {
    await this.withRetries('cancel', undefined, false, async () => {
      try {
        await this.client.responses.cancel(id);
      } catch (error) {
        // Already finished (or already cancelled): nothing left to stop.
        if (error instanceof OpenAI.APIError && (error.status === 400 || error.status === 409)) return;
        throw error;
      }
    });
  }

  private async withRetries<T>(
    what: 'create' | 'retrieve' | 'cancel',
    signal: AbortSignal | undefined,
    paid: boolean,
    call: (signal?: AbortSignal) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await linked(signal, call);
      } catch (raw) {
        if (signal?.aborted) throw signal.reason;
        const error = this.classify(raw, what, paid);
        if (!(error instanceof ProviderError && error.retryable) || attempt >= this.options.maxRetries)
          throw error;
        const delay = retryDelayMs(attempt, raw instanceof OpenAI.APIError ? raw.headers : undefined);
        this.options.logger.warn(
          { what, attempt: attempt + 1, delayMs: delay, code: error.code },
          'deep-research API call failed; retrying',
        );
        await sleep(delay, signal);
      }
    }
  }

  private classify(error: unknown, what: string, paid: boolean): ProviderError | ConfigError {
    const key = this.options.apiKey;
    const where = this.options.baseURL ?? 'https://api.openai.com/v1';
    if (error instanceof OpenAI.APIError && error.status !== undefined) {
      const status = error.status;
      if (status === 401 || status === 403)
        return new ConfigError(
          'hosted_auth',
          `The deep-research API at ${where} rejected the key (HTTP ${status}): check DEEP_RESEARCH_API_KEY (or OPENAI_API_KEY).`,
          { cause: error },
        );
      const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
      return new ProviderError(
        status === 429 ? 'hosted_rate_limited' : 'hosted_http_error',
        `The deep-research API answered HTTP ${status} to a ${what}: ${redactSecrets(error.message, [key]).slice(0, 300)}`,
        retryable,
        { cause: error, status },
      );
    }
    const message = redactSecrets(error instanceof Error ? error.message : String(error), [key]).slice(
      0,
      300,
    );
    if (paid && !notSent(error))
      return new ProviderError(
        'hosted_create_unconfirmed',
        `the request to the deep-research API may have started but its answer was lost (${message}); it was not sent again so it is not paid for twice`,
        false,
        { cause: error },
      );
    return new ProviderError(
      'hosted_connection',
      `Could not reach the deep-research API at ${where}: ${message}`,
      true,
      {
        cause: error,
      },
    );
  }
}

/**
 * Runs one call on a signal of its own that follows `signal`: the SDK leaves
 * a listener on the signal it is given, and a task's polls share one signal
 * for as long as it runs.
 */
async function linked<T>(
  signal: AbortSignal | undefined,
  call: (signal?: AbortSignal) => Promise<T>,
): Promise<T> {
  if (!signal) return call();
  const own = new AbortController();
  const abort = () => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  try {
    return await call(own.signal);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

function notSent(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT.has(code)) return true;
  }
  return false;
}

/** The parts of a Responses API answer research needs. */
export function read(response: Response): HostedResponse {
  const searches: HostedSearch[] = [];
  const reasoning: string[] = [];
  let text = '';
  const citations: HostedCitation[] = [];
  for (const item of response.output ?? []) {
    if (item.type === 'reasoning') reasoning.push(...(item.summary ?? []).map((s) => s.text));
    else if (item.type === 'web_search_call') searches.push(searchOf(item));
    else if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        const base = text.length;
        for (const a of part.annotations ?? []) {
          if (a.type === 'url_citation')
            citations.push({
              url: a.url,
              title: a.title,
              start: base + a.start_index,
              end: base + a.end_index,
            });
        }
        text += part.text;
      }
    }
  }
  const usage = usageOf(response);
  return {
    id: response.id,
    status: (response.status ?? 'in_progress') as HostedResponse['status'],
    text,
    citations,
    searches,
    reasoning,
    ...(usage ? { usage } : {}),
    ...(response.error?.message
      ? { error: response.error.message }
      : response.incomplete_details?.reason
        ? { error: `incomplete: ${response.incomplete_details.reason}` }
        : {}),
  };
}

function searchOf(item: Extract<ResponseOutputItem, { type: 'web_search_call' }>): HostedSearch {
  const action = item.action as { type?: string; queries?: string[]; query?: string; url?: string | null };
  const kind = action?.type === 'open_page' || action?.type === 'find_in_page' ? action.type : 'search';
  // `queries` replaced the single, deprecated `query`; older answers carry only the latter.
  const queries = action?.queries?.length ? action.queries : action?.query ? [action.query] : [];
  return {
    id: item.id,
    kind,
    ...(queries.length ? { queries } : {}),
    ...(action?.url ? { url: action.url } : {}),
  };
}
