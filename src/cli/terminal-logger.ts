import type { Writable } from 'node:stream';
import type { Logger } from '../ports/logger.js';
import { redactSecrets } from '../redact-secrets.js';

/**
 * Logs for a person at a terminal: one plain line each on stderr, never JSON
 * or a stack trace. By default only warnings: every command prints its own
 * failure in one line, so an error record would only repeat it. `--verbose`
 * adds information and those error records (with their causes).
 * LOG_LEVEL switches the CLI back to JSON logs for machines.
 */
export function terminalLogger(
  out: Writable,
  options: { verbose: boolean; secrets: readonly string[] },
): Logger {
  const line =
    (label: string) =>
    (obj: object, msg = '') => {
      const err = (obj as { err?: unknown }).err;
      const cause = err instanceof Error ? `: ${causes(err)}` : '';
      const code = (obj as { code?: unknown }).code;
      const detail = typeof code === 'string' && !cause ? ` (${code})` : '';
      out.write(`${label}: ${redactSecrets(`${msg}${detail}${cause}`, options.secrets)}\n`);
    };
  const quiet = () => {};
  const logger: Logger = {
    info: options.verbose ? line('info') : quiet,
    warn: line('warning'),
    error: options.verbose ? line('error') : quiet,
    child: () => logger,
  };
  return logger;
}

/** An error's message followed by its causes' own, where they add something. */
function causes(error: Error): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) {
    if (!parts.some((p) => p.includes(e instanceof Error ? e.message : ''))) parts.push(e.message);
  }
  return parts.join(' ← ');
}
