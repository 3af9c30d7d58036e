import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ConfigError, ProviderError } from '../engine/errors.js';
import { retryDelayMs, sleep } from '../http/retry-delay.js';
import type { ChatMessage, Llm, LlmRequest, LlmResponse, ToolCall } from '../ports/llm.js';
import type { Logger } from '../ports/logger.js';
import { redactSecrets } from '../redact-secrets.js';

export interface OpenAiLlmOptions {
  apiKey: string;
  baseURL?: string;
  maxRetries: number;
  logger: Logger;
  /** Used when a server does not report usage in the stream. */
  countTokens: (text: string) => number;
  /** A request whose stream has not started after this long is abandoned and retried (default 60 s). */
  firstTokenMs?: number;
  /** A stream silent this long between chunks is abandoned and retried (default 30 s). */
  stallMs?: number;
  fetch?: typeof fetch;
}

/** The stream did not start, or went silent, in time. */
class Silent extends Error {}

/**
 * The `Llm` port on Chat Completions, which any OpenAI-compatible server
 * speaks. Always streams, so text reaches the caller as it is written. The
 * SDK's own retries are off: they cannot see a stream that stalls mid-body
 * nor the session's deadline, so this adapter retries 429/5xx/timeouts
 * itself, honouring Retry-After, until the caller's signal says stop.
 */
export class OpenAiLlm implements Llm {
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiLlmOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      timeout: 24 * 3600_000,
      fetch: options.fetch,
    });
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(request.timeoutMs);
      const watchdog = new AbortController();
      const signal = AbortSignal.any([timeout, watchdog.signal, ...(request.signal ? [request.signal] : [])]);
      try {
        return await this.attempt(request, signal, watchdog);
      } catch (raw) {
        if (request.signal?.aborted) throw request.signal.reason;
        const silent = watchdog.signal.aborted ? (watchdog.signal.reason as Silent) : undefined;
        const error = classify(silent ?? raw, timeout.aborted, request, this.options.apiKey);
        if (!(error instanceof ProviderError && error.retryable) || attempt >= this.options.maxRetries)
          throw error;
        const delay = retryDelayMs(attempt, raw instanceof OpenAI.APIError ? raw.headers : undefined);
        this.options.logger.warn(
          {
            model: request.model.name,
            purpose: request.purpose,
            attempt: attempt + 1,
            delayMs: delay,
            code: error.code,
          },
          'model call failed; retrying',
        );
        await sleep(delay, request.signal);
      }
    }
  }

  private async attempt(
    request: LlmRequest,
    signal: AbortSignal,
    watchdog: AbortController,
  ): Promise<LlmResponse> {
    const firstMs = this.options.firstTokenMs ?? 60_000;
    const stallMs = this.options.stallMs ?? 30_000;
    let timer = setTimeout(
      () => watchdog.abort(new Silent(`the model server sent nothing for ${firstMs / 1000} s`)),
      firstMs,
    );
    const stillAlive = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => watchdog.abort(new Silent(`the model server's answer stalled for ${stallMs / 1000} s`)),
        stallMs,
      );
    };
    try {
      const stream = await this.client.chat.completions.create(toParams(request), { signal });
      // Not every transport ends a body read on abort, and the SDK ends an aborted stream quietly:
      // the abort itself settles the attempt.
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      aborted.catch(() => {});
      const response = await Promise.race([
        this.read(request, stream as AsyncIterable<ChatCompletionChunk>, stillAlive),
        aborted,
      ]);
      if (signal.aborted) throw signal.reason;
      return response;
    } finally {
      clearTimeout(timer);
    }
  }

  private async read(
    request: LlmRequest,
    stream: AsyncIterable<ChatCompletionChunk>,
    stillAlive: () => void,
  ): Promise<LlmResponse> {
    let text = '';
    let finishReason = 'unknown';
    let usage: LlmResponse['usage'] | undefined;
    const calls = new Map<number, ToolCall>();
    for await (const chunk of stream) {
      stillAlive();
      if (chunk.usage) {
        usage = {
          inputTokens: chunk.usage.prompt_tokens,
          outputTokens: chunk.usage.completion_tokens,
          cachedInputTokens: cachedTokensOf(chunk.usage),
        };
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta?.content) {
        text += delta.content;
        request.onTextDelta?.(delta.content);
      }
      for (const part of delta?.tool_calls ?? []) {
        const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
        calls.set(part.index, call);
      }
    }
    // A stream that ends without saying why it ended was cut short (or was not a completion at all).
    if (finishReason === 'unknown' && !text && calls.size === 0)
      throw new ProviderError(
        'llm_bad_response',
        'The model server sent an empty or unreadable answer.',
        true,
      );
    const toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return {
      text,
      toolCalls,
      finishReason,
      usage: usage ?? this.estimateUsage(request, text, toolCalls),
    };
  }

  private estimateUsage(request: LlmRequest, text: string, toolCalls: ToolCall[]): LlmResponse['usage'] {
    const input = request.messages.map((m) => m.content).join('\n');
    const output = text + toolCalls.map((c) => c.name + c.arguments).join('');
    return { inputTokens: this.options.countTokens(input), outputTokens: this.options.countTokens(output) };
  }
}

function toParams(request: LlmRequest): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model.name,
    messages: request.messages.map(toWire),
    stream: true,
    stream_options: { include_usage: true },
  };
  // Some servers reject an empty tools list, so none is sent rather than [].
  if (request.tools?.length) {
    params.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    params.tool_choice = request.toolChoice ?? 'auto';
  }
  if (request.maxTokens) {
    if (request.model.reasoning) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.model.reasoning && request.reasoningEffort) params.reasoning_effort = request.reasoningEffort;
  return params;
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content || null,
            tool_calls: message.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default:
      return message;
  }
}

/** Maps SDK and network failures to our fault taxonomy, deciding what is worth retrying. */
function classify(
  error: unknown,
  timedOut: boolean,
  request: LlmRequest,
  apiKey: string,
): ProviderError | ConfigError {
  const model = request.model.name;
  if (error instanceof ProviderError) return error;
  if (error instanceof Silent)
    return new ProviderError('llm_stalled', `The model call was abandoned: ${error.message}.`, true, {
      cause: error,
    });
  if (timedOut) {
    return new ProviderError('llm_timeout', `The model call timed out after ${request.timeoutMs} ms.`, true, {
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const status = error.status;
    if (status === 401 || status === 403) {
      return new ConfigError(
        'llm_auth',
        `The model server rejected the API key (HTTP ${status}): check OPENAI_API_KEY.`,
        { cause: error },
      );
    }
    if (status === 404) {
      return new ConfigError(
        'llm_model_not_found',
        `The model server does not know model "${model}" (HTTP 404): check RESEARCH_MODEL and OPENAI_BASE_URL.`,
        { cause: error },
      );
    }
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new ProviderError(
      status === 429 ? 'llm_rate_limited' : 'llm_http_error',
      `The model server answered HTTP ${status}: ${redactSecrets(error.message, [apiKey]).slice(0, 300)}`,
      retryable,
      { cause: error, status },
    );
  }
  const message = redactSecrets(error instanceof Error ? error.message : String(error), [apiKey]).slice(
    0,
    300,
  );
  // Connection failures and streams cut mid-way are transient.
  return new ProviderError('llm_connection', `Could not reach the model server: ${message}`, true, {
    cause: error,
  });
}

/**
 * Prompt-cache hits as OpenAI-compatible servers report them: OpenAI, vLLM and
 * OpenRouter in `prompt_tokens_details.cached_tokens`, DeepSeek in
 * `prompt_cache_hit_tokens`, Moonshot in `cached_tokens`; 0 when none does.
 */
export function cachedTokensOf(usage: object): number {
  const u = usage as {
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    prompt_cache_hit_tokens?: unknown;
    cached_tokens?: unknown;
  };
  const value = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? u.cached_tokens;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
