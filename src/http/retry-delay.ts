/**
 * How long to wait before retry `attempt` (0-based): the server's Retry-After
 * (or retry-after-ms) when given, else exponential backoff with jitter.
 */
export function retryDelayMs(attempt: number, headers: Headers | undefined, random = Math.random): number {
  const fromServer = retryAfterMs(headers);
  if (fromServer !== undefined) return Math.min(fromServer, 120_000);
  const base = Math.min(500 * 2 ** attempt, 20_000);
  return Math.round(base * (0.75 + random() * 0.5));
}

export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export { sleep } from '../engine/deadline-signal.js';
