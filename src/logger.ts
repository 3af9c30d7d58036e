import { pino } from 'pino';
import type { Logger } from './ports/logger.js';
import { redactSecrets } from './redact-secrets.js';

/**
 * JSON logs on stderr. Secrets are redacted wherever they might appear: known
 * fields of logged objects, and the message and stack of logged errors (a
 * provider's error body may echo the key it was sent).
 */
export function createLogger(
  level: string,
  secrets: readonly string[] = [],
  destination: pino.DestinationStream = pino.destination(2),
): Logger {
  const scrub = (err: unknown) => {
    const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
    if (!out || typeof out !== 'object') return out;
    for (const field of ['message', 'stack']) {
      if (typeof out[field] === 'string') out[field] = redactSecrets(out[field] as string, secrets);
    }
    return out;
  };
  return pino(
    {
      level,
      redact: {
        paths: ['*.apiKey', '*.token', '*.authorization', '*.headers.authorization', 'apiKey', 'token'],
        censor: '[redacted]',
      },
      serializers: { err: scrub },
      // A message's own words too (a sentence naming an address it could not reach).
      hooks: {
        logMethod(args, method) {
          const clean = args.map((a) => (typeof a === 'string' ? redactSecrets(a, secrets) : a));
          return method.apply(this, clean as typeof args);
        },
      },
    },
    destination,
  );
}
