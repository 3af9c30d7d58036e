import { ConfigError } from '../engine/errors.js';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Reaches the model server once before a terminal's research starts: any
 * HTTP answer to `GET /models` counts (some servers have no such route, or
 * want another key there), and nothing listening, a host that does not
 * resolve or no answer within `timeoutMs` ends the command in one line,
 * before a session is recorded or money spent.
 */
export async function reachModelServer(
  access: { apiKey: string; baseURL?: string },
  timeoutMs = 10_000,
): Promise<void> {
  const where = access.baseURL ?? 'https://api.openai.com/v1';
  try {
    const response = await fetch(`${where.replace(/\/+$/, '')}/models`, {
      headers: { authorization: `Bearer ${access.apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
  } catch (error) {
    const fix = 'start it, or check OPENAI_BASE_URL and your network.';
    if ((error as Error).name === 'TimeoutError')
      throw new ConfigError(
        'llm_unreachable',
        `The model server at ${where} did not answer within ${timeoutMs / 1000} s: ${fix}`,
      );
    for (let e: unknown = error; e instanceof Error; e = e.cause) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && UNREACHABLE.has(code))
        throw new ConfigError(
          'llm_unreachable',
          `Could not reach the model server at ${where} (${code}): ${fix}`,
          {
            cause: error,
          },
        );
    }
    throw new ConfigError(
      'llm_unreachable',
      `Could not reach the model server at ${where} (${(error as Error).message}): ${fix}`,
      {
        cause: error,
      },
    );
  }
}
