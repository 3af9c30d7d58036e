import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The environment with the variables of `.env` in `dir` under it: a variable
 * set in the real environment wins (an empty one counts as unset, as in the
 * config). Without the file, the environment as it is.
 */
export function withEnvFile(
  env: Record<string, string | undefined>,
  dir: string,
): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(join(dir, '.env'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return env;
    throw error;
  }
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  return { ...env, ...parseEnv(text), ...set };
}
