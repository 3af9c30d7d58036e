import { ConfigError } from '../ports/errors.js';

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  // The embedded database's socket is gone: the process that served it ended.
  'ENOENT',
]);
// admin/crash shutdown, starting up, too many connections, statement timeout (a frozen or overloaded server).
const SERVER = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const CLIENT =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection closed/i;

/**
 * True when the database could not be reached or stopped answering: worth
 * waiting for, unlike a bad query or a refused login.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown; errors?: unknown[] } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code && (NETWORK.has(e.code) || SERVER.has(e.code) || e.code.startsWith('08'))) return true;
  if (e.message && CLIENT.test(e.message)) return true;
  // Node's happy-eyeballs connect fails with an AggregateError of the per-address errors.
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable)) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

/** A row with that key exists already (a concurrent insert won). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/** Host and port of a connection string, never its password. */
export function databaseAddress(url: string | undefined): string {
  if (!url) return 'the embedded database';
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** The cause in a few words: the error code, or the first line of the server's message. */
export function databaseCause(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e?.code ?? e?.errors?.find((x) => x.code)?.code;
  if (code && NETWORK.has(code)) return code;
  return (e?.message ?? String(error)).split('\n')[0]!.slice(0, 200) || code || 'unknown error';
}

/**
 * A database error met at start-up as one line naming DATABASE_URL and the
 * fix, or null when it is not about reaching or logging in (a bug, a failed
 * migration).
 */
export function databaseStartError(error: unknown, url: string | undefined): ConfigError | null {
  const code = (error as { code?: string })?.code;
  const where = databaseAddress(url);
  const cause = databaseCause(error);
  if (code === '28P01' || code === '28000')
    return new ConfigError(
      'database_login',
      `DATABASE_URL was refused by ${where}: ${cause}; fix the user or password in DATABASE_URL.`,
    );
  if (code === '3D000')
    return new ConfigError(
      'database_missing',
      `DATABASE_URL names a database that does not exist (${cause}); create it or fix the name in DATABASE_URL.`,
    );
  if (isDatabaseUnavailable(error))
    return new ConfigError(
      'database_unreachable',
      url
        ? `The database at ${where} cannot be reached (${cause}); start it or fix the host and port in DATABASE_URL.`
        : // Reached through the process that has it open (a short command): that process has ended.
          `The embedded database could not be reached (${cause}): the process that had it open has probably just ended; run the command again.`,
    );
  return null;
}
