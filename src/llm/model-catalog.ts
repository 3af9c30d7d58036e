import { ConfigError } from '../ports/errors.js';
import { urlWithoutSecrets } from '../redact-secrets.js';

/** A model server's address and key. */
export interface ServerAccess {
  apiKey: string;
  baseURL?: string;
}

/** A model a server lists, with the day it shuts down when one is announced (YYYY-MM-DD). */
export interface ListedModel {
  id: string;
  shutdownDate?: string;
}

/**
 * What `GET /models` says: the models the server offers, or why it gave no
 * list (no such route, another key needed there, an answer that is not a
 * list). A server without a list is not an error: many OpenAI-compatible
 * servers have none, or accept names they do not list.
 */
export type ModelCatalog = { kind: 'listed'; models: ListedModel[] } | { kind: 'unlisted'; reason: string };

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The server's address as it is shown and told apart (credentials in it masked). */
export function serverAddress(access: ServerAccess): string {
  return urlWithoutSecrets(access.baseURL ?? 'https://api.openai.com/v1');
}

/**
 * Reads a server's model list once. Any HTTP answer counts as reaching the
 * server; nothing listening, a host that does not resolve or no answer within
 * `timeoutMs` is a ConfigError naming the address (the server must run for
 * anything that researches).
 */
export async function readModelCatalog(
  access: ServerAccess,
  {
    timeoutMs = 10_000,
    fetch: fetchFn = fetch,
    addressVariable = 'OPENAI_BASE_URL',
  }: { timeoutMs?: number; fetch?: typeof fetch; addressVariable?: string } = {},
): Promise<ModelCatalog> {
  const where = serverAddress(access);
  let response: Response;
  try {
    response = await fetchFn(`${where.replace(/\/+$/, '')}/models`, {
      headers: { authorization: `Bearer ${access.apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw unreachable(error, where, timeoutMs, addressVariable);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: 'unlisted', reason: `GET /models answered HTTP ${response.status}` };
  }
  try {
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return { kind: 'unlisted', reason: 'GET /models answered no list' };
    const models = body.data.flatMap((m): ListedModel[] => {
      const id = (m as { id?: unknown })?.id;
      if (typeof id !== 'string' || !id) return [];
      const shutdownDate = dayOf((m as { shutdown_date?: unknown }).shutdown_date);
      return [{ id, ...(shutdownDate ? { shutdownDate } : {}) }];
    });
    return { kind: 'listed', models };
  } catch {
    return { kind: 'unlisted', reason: 'GET /models answered something that is not JSON' };
  }
}

/**
 * A `shutdown_date` as a day: OpenAI sends `YYYY-MM-DD`; an ISO date-time or
 * a Unix timestamp (seconds, or milliseconds) is read too. Anything else is
 * no date.
 */
export function dayOf(value: unknown): string | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d{9,13}$/.test(value.trim()))) {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return undefined;
    return new Date(n > 1e12 ? n : n * 1000).toISOString().slice(0, 10);
  }
  if (typeof value !== 'string') return undefined;
  const day = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(value.trim())?.[1];
  return day && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : undefined;
}

function unreachable(error: unknown, where: string, timeoutMs: number, variable: string): ConfigError {
  const fix = `start it, or check ${variable} and your network.`;
  if ((error as Error).name === 'TimeoutError')
    return new ConfigError(
      'llm_unreachable',
      `The model server at ${where} did not answer within ${timeoutMs / 1000} s: ${fix}`,
    );
  const code = unreachableCode(error);
  if (code)
    return new ConfigError(
      'llm_unreachable',
      `Could not reach the model server at ${where} (${code}): ${fix}`,
      {
        cause: error,
      },
    );
  return new ConfigError(
    'llm_unreachable',
    `Could not reach the model server at ${where} (${(error as Error).message}): ${fix}`,
    { cause: error },
  );
}

/** The code of a refused connection or an unknown host in an error's causes: nothing listens where the settings point. */
export function unreachableCode(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return code;
  }
  return undefined;
}
