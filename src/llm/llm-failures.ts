import OpenAI from 'openai';
import { ConfigError, ProviderError } from '../ports/errors.js';
import type { LlmRequest } from '../ports/llm.js';
import { redactSecrets } from '../redact-secrets.js';
import { unreachableCode } from './model-catalog.js';

/**
 * Whose fault a failed model call is, and whether trying again can help: the
 * model server's failures as the adapter's callers read them.
 */

/** The stream did not start, or went silent, in time. */
export class Silent extends Error {}

/** A connection refused or a host that does not resolve: nothing is listening where the settings point. */
export function unreachable(error: unknown, baseURL: string | undefined): ConfigError | undefined {
  if (!(error instanceof OpenAI.APIConnectionError) || error instanceof OpenAI.APIConnectionTimeoutError)
    return undefined;
  const code = unreachableCode(error);
  const where = baseURL ?? 'https://api.openai.com/v1';
  return code
    ? new ConfigError(
        'llm_unreachable',
        `Could not reach the model server at ${where} (${code}): start it, or check OPENAI_BASE_URL and your network.`,
        { cause: error },
      )
    : undefined;
}

/** Maps SDK and network failures to our fault taxonomy, deciding what is worth retrying. */
export function classify(
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
  // A 200 whose stream is not JSON (cut off, or not a model server at all): read, but unreadable.
  if (error instanceof SyntaxError)
    return new ProviderError(
      'llm_bad_response',
      'The model server sent an empty or unreadable answer.',
      true,
      {
        cause: error,
      },
    );
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
  if (error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIConnectionError)) {
    // An error chunk inside a stream that had started (OpenRouter when its upstream provider fails).
    return new ProviderError(
      'llm_stream_error',
      `The model server failed mid-answer: ${redactSecrets(error.message, [apiKey]).slice(0, 300)}`,
      true,
      { cause: error },
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
