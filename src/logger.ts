import { pino } from 'pino';
import type { Logger } from './ports/logger.js';

/** JSON logs on stderr. Secrets are redacted wherever they might appear in logged objects. */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['*.apiKey', '*.token', '*.authorization', '*.headers.authorization', 'apiKey', 'token'],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    pino.destination(2),
  );
}
