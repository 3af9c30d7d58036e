import OpenAI from 'openai';
import { withDeadline } from '../engine/deadline-signal.js';
import { retryDelayMs, sleep } from '../http/retry-delay.js';
import { ProviderError } from '../ports/errors.js';
import type { Llm, LlmRequest, LlmResponse, ModelSpec, ToolCall } from '../ports/llm.js';
import type { Logger } from '../ports/logger.js';
import { chatCompletionsTurn } from './chat-completions-wire.js';
import { errorBodyFetch } from './error-body-fetch.js';
import { classify, Silent, unreachable } from './llm-failures.js';
import { type ModelApi, ModelApis } from './model-apis.js';
import { serverAddress } from './model-catalog.js';
import { isModelNotFound, type RefusedModel } from './model-not-found.js';
import { responsesTurn } from './responses-wire.js';
import {
  rejectsJsonSchema,
  rejectsRequiredToolChoice,
  rejectsSealedReasoning,
  type ServerAdaptations,
  serverAdaptations,
  toolCallingUnavailable,
} from './server-adaptations.js';
import type { WireTurn } from './wire-turn.js';

const TURNS: Record<ModelApi, WireTurn> = {
  responses: responsesTurn,
  'chat-completions': chatCompletionsTurn,
};

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
  /**
   * Until the server has answered once, a refused connection or an unknown host is a configuration
   * error, not retried: the CLI's first run says so in one line at once. Services keep retrying.
   */
  unreachableIsFatal?: boolean;
  /** The sentence for a model the server does not serve (which variable to set, to what). */
  refusedModel?: RefusedModel;
  /** Which API each model is called on (one per process, shared with doctor and /healthz); default: auto. */
  apis?: ModelApis;
}

/**
 * The `Llm` port on an OpenAI-compatible server, on the Responses API or
 * Chat Completions as `ModelApis` decides per model. Always streams, so text
 * reaches the caller as it is written. The SDK's own retries are off: they
 * cannot see a stream that stalls mid-body nor the session's deadline, so
 * this adapter retries 429/5xx/timeouts itself, honouring Retry-After, until
 * the caller's signal says stop.
 */
export class OpenAiLlm implements Llm {
  private readonly client: OpenAI;
  private readonly adaptations: ServerAdaptations;
  readonly apis: ModelApis;
  private readonly server: string;
  private answered = false;

  constructor(private readonly options: OpenAiLlmOptions) {
    this.adaptations = serverAdaptations(options.logger);
    this.apis = options.apis ?? new ModelApis('auto', options.logger);
    this.server = serverAddress(options);
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      // The SDK would print unparseable chunks to the console; this adapter reports them itself.
      logLevel: 'off',
      timeout: 24 * 3600_000,
      fetch: errorBodyFetch(options.fetch),
    });
  }

  async complete(request: LlmRequest): Promise<LlmResponse> {
    const model = request.model.name;
    const { api, decides } = await this.apis.choose(this.server, model);
    const route = { api };
    let served = false;
    try {
      const response = await this.retried(request, route);
      served = true;
      return response;
    } finally {
      // The calls waiting on this one go on, with what it learned when it was answered.
      if (decides)
        this.apis.decided(
          this.server,
          model,
          served ? { api: route.api, why: 'the server serves it there' } : undefined,
        );
    }
  }

  /**
   * Which API serves `model`, learned by sending it the smallest turn with a
   * tool (what research sends); for `deep-research doctor`. Throws what such
   * a call would.
   */
  async apiFor(model: ModelSpec): Promise<ModelApi> {
    await this.complete({
      model,
      purpose: 'api_check',
      messages: [{ role: 'user', content: 'Reply with the word OK.' }],
      tools: [{ name: 'noop', description: 'Does nothing.', parameters: { type: 'object', properties: {} } }],
      toolChoice: 'auto',
      maxTokens: 16,
      reasoningEffort: 'low',
      timeoutMs: 60_000,
    });
    return this.apis.current(this.server, model.name) ?? 'responses';
  }

  /** The call with its retries; `route.api` moves to the other API when the server says it is the wrong one. */
  private async retried(request: LlmRequest, route: { api: ModelApi }): Promise<LlmResponse> {
    for (let attempt = 0; ; ) {
      const watchdog = new AbortController();
      let timedOut = () => false;
      try {
        return await withDeadline(request.timeoutMs, [watchdog.signal, request.signal], (signal, expired) => {
          timedOut = expired;
          return this.attempt(TURNS[route.api], request, signal, watchdog);
        });
      } catch (raw) {
        if (request.signal?.aborted) throw request.signal.reason;
        const model = request.model.name;
        // The other API, when this one is the wrong one for the model: not an attempt, and learned for good.
        const instead = this.apis.insteadOf(route.api, raw, this.server, model);
        if (instead) {
          route.api = instead;
          continue;
        }
        const unavailable =
          toolCallingUnavailable(raw, model) ??
          (this.options.unreachableIsFatal && !this.answered
            ? unreachable(raw, this.options.baseURL)
            : undefined);
        if (unavailable) throw unavailable;
        if (isModelNotFound(raw) && this.options.refusedModel)
          throw await this.options.refusedModel(model, raw);
        if (rejectsRequiredToolChoice(raw, request) && !this.adaptations.has('tool_choice_auto')) {
          this.adaptations.learn('tool_choice_auto', model);
          continue;
        }
        if (rejectsJsonSchema(raw, request) && !this.adaptations.has('json_schema_in_prompt')) {
          this.adaptations.learn('json_schema_in_prompt', model);
          continue;
        }
        if (
          route.api === 'responses' &&
          rejectsSealedReasoning(raw, request) &&
          !this.adaptations.has('reasoning_not_carried')
        ) {
          this.adaptations.learn('reasoning_not_carried', model);
          continue;
        }
        const silent = watchdog.signal.aborted ? (watchdog.signal.reason as Silent) : undefined;
        const error = classify(silent ?? raw, timedOut(), request, this.options.apiKey);
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
        attempt += 1;
      }
    }
  }

  private async attempt(
    turn: WireTurn,
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
      // Not every transport ends a body read on abort, and the SDK ends an aborted stream quietly:
      // the abort itself settles the attempt.
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      aborted.catch(() => {});
      const read = await Promise.race([
        turn(this.client, request, this.adaptations.shape(request), signal, stillAlive, request.onTextDelta),
        aborted,
      ]);
      if (signal.aborted) throw signal.reason;
      this.answered = true;
      const { usage, thinkTags, ...answer } = read;
      if (thinkTags) this.adaptations.learn('think_tags_removed', request.model.name);
      if (usage) return { ...answer, usage };
      this.adaptations.learn('usage_estimated', request.model.name);
      return { ...answer, usage: this.estimateUsage(request, answer.text, answer.toolCalls) };
    } finally {
      clearTimeout(timer);
    }
  }

  private estimateUsage(request: LlmRequest, text: string, toolCalls: ToolCall[]): LlmResponse['usage'] {
    const input = request.messages.map((m) => m.content).join('\n');
    const output = text + toolCalls.map((c) => c.name + c.arguments).join('');
    return { inputTokens: this.options.countTokens(input), outputTokens: this.options.countTokens(output) };
  }
}
