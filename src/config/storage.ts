import { z } from 'zod';
import { defaultDataDir } from '../data-dir.js';
import { type EnvOf, optionalText, positiveInt, positiveNumber } from '../ports/env-values.js';
import type { Config } from './config-shape.js';

/** Where sessions are kept, and for how long. */
export const STORAGE_FIELDS = {
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  DATABASE_TIMEOUT_SECONDS: positiveNumber.default(20),
  // Unset: the user's data directory (see defaultDataDir), the same wherever a command runs.
  DATA_DIR: optionalText,
  RETENTION_DAYS: positiveInt.default(90),
  // The audit trail outlives the sessions it names: a year by default.
  AUDIT_RETENTION_DAYS: positiveInt.default(365),
};

export function readStorage(
  e: EnvOf<typeof STORAGE_FIELDS>,
  env: Record<string, string | undefined>,
): Config['database'] {
  return {
    url: e.DATABASE_URL,
    dataDir: e.DATA_DIR ?? defaultDataDir(env),
    retentionDays: e.RETENTION_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    queryTimeoutMs: e.DATABASE_TIMEOUT_SECONDS * 1000,
  };
}
