import { configuredBackends } from '../backends/backend-list.js';
import type { SharedAccess } from '../backends/backend-plugin.js';
import { settingsMessage } from '../ports/env-values.js';
import { ConfigError } from '../ports/errors.js';
import { searchKeyProblem } from '../search/web/create-web-search.js';
import type { Config } from './config-shape.js';

/**
 * Everything research needs from the settings, checked at once before a
 * session starts: the model server, the search provider's key, the hosted
 * backend's own settings (a hosted backend's key) when it researches.
 */
export function requireResearchSettings(config: Config): void {
  const problems = researchProblems(config);
  if (problems.length) throw new ConfigError('missing_env', settingsMessage(problems));
}

/**
 * Everything a service needs, in one message before anything slow starts:
 * `serve` its Slack settings and research's, a worker research's.
 */
export function requireServiceSettings(config: Config, mode: 'serve' | 'worker'): void {
  const problems = [...(mode === 'serve' ? slackProblems(config) : []), ...researchProblems(config)];
  if (problems.length) throw new ConfigError('missing_env', settingsMessage(problems));
}

function researchProblems(config: Config): string[] {
  return [
    attempt(() => requireModelAccess(config)),
    searchKeyProblem(config.search),
    backendMissing(config),
  ].filter((p): p is string => Boolean(p));
}

function attempt(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/** The model server must be reachable for anything that researches. */
export function requireModelAccess(config: Config): { apiKey: string; baseURL?: string } {
  if (config.openai.apiKey) return { apiKey: config.openai.apiKey, baseURL: config.openai.baseURL };
  // Local OpenAI-compatible servers (Ollama, vLLM) usually take no key.
  if (config.openai.baseURL) return { apiKey: 'not-needed', baseURL: config.openai.baseURL };
  throw new ConfigError(
    'missing_env',
    'OPENAI_API_KEY is not set: set it to your OpenAI API key, or set OPENAI_BASE_URL to an OpenAI-compatible server.',
  );
}

/** What the backend that researches new sessions lacks (its key), as one sentence, or undefined. */
export function backendMissing(config: Config): string | undefined {
  const { current } = configuredBackends(config.research);
  return current.plugin.missing?.(current.settings, sharedAccess(config));
}

/** The shared model server's settings, which a backend may fall back on (OPENAI_API_KEY). */
export function sharedAccess(config: Config): SharedAccess {
  return {
    apiKey: config.openai.apiKey,
    baseURL: config.openai.baseURL,
    maxRetries: config.openai.maxRetries,
  };
}

/** What `serve` needs: a bot token, and a signing secret unless Socket Mode is on. */
export function requireSlack(config: Config): Required<Pick<Config['slack'], 'botToken'>> & Config['slack'] {
  const problems = slackProblems(config);
  if (problems.length) throw new ConfigError('missing_env', settingsMessage(problems));
  return { ...config.slack, botToken: config.slack.botToken! };
}

function slackProblems({ slack }: Config): string[] {
  return [
    ...(slack.botToken
      ? []
      : [
          "SLACK_BOT_TOKEN is not set: set it to the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions.",
        ]),
    ...(slack.appToken || slack.signingSecret
      ? []
      : [
          'SLACK_SIGNING_SECRET is not set: set it to the Signing Secret from Basic Information, or set SLACK_APP_TOKEN for Socket Mode.',
        ]),
  ];
}
