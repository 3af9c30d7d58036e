import OpenAI from 'openai';
import type { Logger } from '../ports/logger.js';
import { isModelNotFound } from './model-not-found.js';

/** The two wire APIs an OpenAI-compatible server may serve a model on. */
export type ModelApi = 'responses' | 'chat-completions';

/** MODEL_API: which API to use; `auto` finds out per server and model. */
export type ModelApiSetting = 'auto' | ModelApi;

export const API_NAMES: Record<ModelApi, string> = {
  responses: 'the Responses API',
  'chat-completions': 'Chat Completions',
};

interface Learned {
  api: ModelApi;
  /** Why, for doctor and /healthz: "the server serves it", "the server has no /responses"… */
  why: string;
}

/**
 * Which API each model is served on, per server, for this process. With
 * MODEL_API=auto a model's first call goes to the Responses API (where
 * reasoning models call tools and keep their reasoning between turns) and
 * the answer decides: a server without that route, or that does not serve
 * the model there, makes it Chat Completions; a Chat Completions refusal
 * that points at /responses makes it the Responses API. Each decision is
 * logged once and kept, so a refused request is never sent again; calls made
 * while a model's first call is deciding wait for it.
 */
export class ModelApis {
  private readonly learned = new Map<string, Learned>();
  private readonly deciding = new Map<string, Promise<void>>();
  private readonly settlers = new Map<string, () => void>();

  constructor(
    readonly setting: ModelApiSetting,
    private readonly logger?: Logger,
  ) {}

  /** The API for this model's next call, and whether this call decides it (settle it with `decided`). */
  async choose(server: string, model: string): Promise<{ api: ModelApi; decides: boolean }> {
    if (this.setting !== 'auto') return { api: this.setting, decides: false };
    const key = keyOf(server, model);
    for (;;) {
      const known = this.learned.get(key);
      if (known) return { api: known.api, decides: false };
      const pending = this.deciding.get(key);
      if (!pending) break;
      await pending;
    }
    let settle = () => {};
    this.deciding.set(
      key,
      new Promise<void>((resolve) => {
        settle = resolve;
      }).finally(() => this.deciding.delete(key)),
    );
    this.settlers.set(key, settle);
    return { api: 'responses', decides: true };
  }

  /** Ends a deciding call: what it learned (if anything) is kept, and the calls waiting on it go on. */
  decided(server: string, model: string, learned?: Learned): void {
    const key = keyOf(server, model);
    if (learned) this.learn(key, model, learned);
    this.settlers.get(key)?.();
    this.settlers.delete(key);
  }

  /**
   * The API to try instead after `error` on `api`, learned for this model, or
   * undefined when the error is not about the API (or MODEL_API forces one).
   */
  insteadOf(api: ModelApi, error: unknown, server: string, model: string): ModelApi | undefined {
    if (this.setting !== 'auto') return undefined;
    const other = switchFor(api, error);
    if (!other) return undefined;
    this.learn(keyOf(server, model), model, other);
    return other.api;
  }

  /** The API this model is called on now: the setting's, or the one learned; undefined before its first answer. */
  current(server: string, model: string): ModelApi | undefined {
    return this.setting !== 'auto' ? this.setting : this.learned.get(keyOf(server, model))?.api;
  }

  /** What doctor and /healthz say of a model: the API it uses and why, or how it will be chosen. */
  describe(server: string, model: string): string {
    if (this.setting !== 'auto') return `${API_NAMES[this.setting]} (MODEL_API=${this.setting})`;
    const known = this.learned.get(keyOf(server, model));
    return known
      ? `${API_NAMES[known.api]} (${known.why})`
      : 'not asked yet: the Responses API is tried at its first call (MODEL_API=auto)';
  }

  private learn(key: string, model: string, learned: Learned): void {
    if (this.learned.get(key)?.api === learned.api) return;
    this.learned.set(key, learned);
    this.logger?.info(
      { model, api: learned.api },
      `model ${model} is called on ${API_NAMES[learned.api]}: ${learned.why}`,
    );
  }
}

function keyOf(server: string, model: string): string {
  return `${server}\n${model}`;
}

function refusal(error: unknown): { status: number; message: string } | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return undefined;
  return { status: error.status, message: error.message };
}

/** Whether `error` says this API is the wrong one for the model, and which to use. */
function switchFor(api: ModelApi, error: unknown): Learned | undefined {
  const refused = refusal(error);
  if (!refused) return undefined;
  if (api === 'responses') {
    // llama.cpp, older Ollama and many proxies: no such route (a 404 that is not about the model).
    if (
      (refused.status === 404 && !isModelNotFound(error)) ||
      refused.status === 405 ||
      refused.status === 501
    )
      return { api: 'chat-completions', why: `the server has no Responses API (HTTP ${refused.status})` };
    // A server that serves the model, but not on this route: said in a 400, or as an unknown model.
    if (isModelNotFound(error))
      return {
        api: 'chat-completions',
        why: 'the server does not serve it on the Responses API; trying Chat Completions',
      };
    if (/not supported (?:with|in|on|for|by) (?:the )?(?:\/v1)?\/?responses/i.test(refused.message))
      return { api: 'chat-completions', why: 'the server serves it on Chat Completions only' };
    return undefined;
  }
  // OpenAI's gpt-5.4 and later: function tools with reasoning only on /v1/responses.
  if (
    (refused.status === 400 || refused.status === 422) &&
    /\/v1\/responses|responses api/i.test(refused.message)
  )
    return { api: 'responses', why: 'Chat Completions refuses its tools and points at the Responses API' };
  return undefined;
}
