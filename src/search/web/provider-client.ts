import pLimit, { type LimitFunction } from 'p-limit';
import type { z } from 'zod';
import { retryAfterMs, retryDelayMs, sleep } from '../../http/retry-delay.js';
import { ProviderError } from '../../ports/errors.js';

export interface ProviderClientOptions {
  /** The provider's name as people know it, for messages: "Tavily". */
  label: string;
  /** The variable holding its key, named when the key is refused. */
  keyVariable?: string;
  /** Pulls the provider's own error sentence out of an error body. */
  errorDetail(body: unknown): string | undefined;
  /** Providers that announce their window differently from Retry-After (Brave). */
  retryAfter?(headers: Headers): number | undefined;
  maxAttempts?: number;
  maxConcurrent?: number;
  /** Spacing between requests, shared by every session in the process; 0 = none. */
  requestsPerSecond?: number;
  random?: () => number;
}

export interface ProviderRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * One per provider per process, shared by every agent of every session: it
 * caps concurrency, spaces requests, and when the provider says "slow down"
 * (429 + Retry-After) every caller waits, not just the one that was told.
 */
export class ProviderClient {
  private readonly limit: LimitFunction;
  private readonly spacingMs: number;
  private pausedUntil = 0;
  private nextSlot = 0;

  constructor(private readonly options: ProviderClientOptions) {
    this.limit = pLimit(options.maxConcurrent ?? 5);
    this.spacingMs = options.requestsPerSecond ? 1000 / options.requestsPerSecond : 0;
  }

  /** Sends the request (retrying what is worth retrying) and checks the answer's shape. */
  async request<T>(request: ProviderRequest, shape: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    const body = await this.limit(() => this.withRetries(request, signal));
    const parsed = shape.safeParse(body);
    if (!parsed.success) {
      throw new ProviderError(
        'search_bad_response',
        `${this.options.label} answered in an unexpected format`,
        false,
      );
    }
    return parsed.data;
  }

  private async withRetries(request: ProviderRequest, signal: AbortSignal): Promise<unknown> {
    const attempts = this.options.maxAttempts ?? 4;
    let last: ProviderError | undefined;
    let backoffUntil = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.waitForTurn(backoffUntil, signal);
      } catch (error) {
        // Time ran out while waiting on the provider: its own reason says more than "aborted".
        throw last ?? error;
      }
      const outcome = await this.attempt(request, signal);
      if (outcome.ok) return outcome.body;
      last = outcome.error;
      if (!last.retryable || attempt + 1 >= attempts) throw last;
      const delay = outcome.delayMs ?? retryDelayMs(attempt, undefined, this.options.random);
      // A 429 is about all of us; a 5xx only about this request.
      if (last.status === 429) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + delay);
      else backoffUntil = Date.now() + delay;
    }
  }

  private async waitForTurn(backoffUntil: number, signal: AbortSignal): Promise<void> {
    if (backoffUntil > Date.now()) await sleep(backoffUntil - Date.now(), signal);
    // Take a slot only when ready, so a request backing off does not hold up the others.
    const now = Date.now();
    const start = Math.max(now, this.pausedUntil, this.nextSlot);
    this.nextSlot = start + this.spacingMs;
    if (start > now) await sleep(start - now, signal);
  }

  private async attempt(
    request: ProviderRequest,
    signal: AbortSignal,
  ): Promise<{ ok: true; body: unknown } | { ok: false; error: ProviderError; delayMs?: number }> {
    const { label } = this.options;
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      return {
        ok: false,
        error: new ProviderError('search_unreachable', `could not reach ${label} (${why})`, true),
      };
    }
    const text = await response.text();
    const body = parseJson(text);
    if (response.ok) {
      if (body === undefined) {
        return {
          ok: false,
          error: new ProviderError(
            'search_bad_response',
            `${label} answered with something that is not JSON`,
            false,
          ),
        };
      }
      return { ok: true, body };
    }
    const status = response.status;
    const detail = (body !== undefined && this.options.errorDetail(body)) || shortText(text);
    const said = detail ? `HTTP ${status}: ${detail}` : `HTTP ${status}`;
    const retryable = status === 429 || status === 408 || status >= 500;
    const delayMs = this.options.retryAfter?.(response.headers) ?? retryAfterMs(response.headers);
    let message: string;
    if (status === 429) message = `${label} is rate limiting searches (${said})`;
    else if ((status === 401 || status === 403) && this.options.keyVariable) {
      message = `${label} refused the API key (${said}); check ${this.options.keyVariable}`;
    } else if (retryable) message = `${label} failed (${said})`;
    else message = `${label} refused the search (${said})`;
    return {
      ok: false,
      error: new ProviderError('search_failed', message, retryable, { status, retryAfterMs: delayMs }),
      delayMs: delayMs === undefined ? undefined : Math.min(delayMs, 60_000),
    };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A plain-text or HTML error page, reduced to something that fits in a sentence. */
function shortText(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}
