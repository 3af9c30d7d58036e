import { z } from 'zod';
import { BACKEND_HINTS } from '../backends/backend-list.js';
import { settingsMessage } from '../ports/env-values.js';
import { ConfigError } from '../ports/errors.js';
import { redactSecrets, SECRET } from '../redact-secrets.js';
import type { Config } from './config-shape.js';
import { HINTS } from './hints.js';
import { JOBS_FIELDS, readJobs } from './jobs.js';
import { MCP_FIELDS, readMcp } from './mcp-servers.js';
import { MODEL_FIELDS, readModels } from './models.js';
import { PROCESS_FIELDS, readProcess } from './process.js';
import { READING_FIELDS, readLimits } from './reading.js';
import { RESEARCH_FIELDS, readResearch, researchingBackend } from './research.js';
import { readSlack, SLACK_FIELDS } from './slack.js';
import { readStorage, STORAGE_FIELDS } from './storage.js';
import { readSearch, SEARCH_FIELDS } from './web-search.js';

/**
 * Every environment variable the app reads, one group per area (each area's
 * file holds its variables and how they become its part of the Config); the
 * README lists the same variables, HINTS what to set an invalid one to.
 */
const schema = z.object({
  ...MODEL_FIELDS,
  ...RESEARCH_FIELDS,
  ...SEARCH_FIELDS,
  ...STORAGE_FIELDS,
  ...JOBS_FIELDS,
  ...PROCESS_FIELDS,
  ...SLACK_FIELDS,
  ...READING_FIELDS,
  ...MCP_FIELDS,
});

export type { Config, SearchProviderName } from './config-shape.js';

/** Every variable the configuration reads (.env.example lists them all; a test keeps it so). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

/** Parses the environment once; bad variables stop start-up with one line each, all named at once. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  // `FOO=` in an env file means "not set", so defaults apply.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const named = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]) as keyof typeof schema.shape;
      if (named.has(name)) continue;
      // A URL is echoed with any credentials in it masked; keys and tokens never.
      const shown = name.endsWith('_URL') ? redactSecrets(String(env[name])) : env[name];
      const got = env[name] === undefined || SECRET.test(name) ? '' : ` (got "${shown}")`;
      const hint =
        HINTS[name] ?? BACKEND_HINTS[name] ?? `set it to a valid value or unset it to use the default`;
      named.set(name, `${name} is invalid${got}: ${issue.message}; ${hint}.`);
    }
    throw new ConfigError('invalid_env', settingsMessage([...named.values()]));
  }
  const e = parsed.data;
  const config: Config = {
    ...readModels(e, researchingBackend(e)),
    ...readResearch(e),
    search: readSearch(e),
    database: readStorage(e, env),
    jobs: readJobs(e),
    slack: readSlack(e),
    reading: readLimits(e),
    mcp: readMcp(e),
    ...readProcess(e),
  };
  return Object.freeze(config);
}
