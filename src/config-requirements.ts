import { settingsMessage } from './config-fields.js';
import type { Config } from './config-shape.js';
import { ConfigError } from './engine/errors.js';
import { searchKeyProblem } from './search/web/create-web-search.js';

/**
 * Everything research needs from the settings, checked at once before a
 * session starts: the model server, the search provider's key, the hosted
 * backend's key when it researches.
 */
export function requireResearchSettings(config: Config): void {
  const problems = [
    attempt(() => requireModelAccess(config)),
    searchKeyProblem(config.search),
    config.research.backend === 'deep-research-api' ? attempt(() => requireHostedAccess(config)) : undefined,
  ].filter((p): p is string => Boolean(p));
  if (problems.length) throw new ConfigError('missing_env', settingsMessage(problems));
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

/** The hosted deep-research API's address and key (RESEARCH_BACKEND=deep-research-api). */
export function requireHostedAccess(config: Config): { apiKey: string; baseURL?: string } {
  const { deepResearch } = config.research;
  const apiKey = deepResearch.apiKey ?? config.openai.apiKey;
  if (!apiKey)
    throw new ConfigError(
      'missing_env',
      'The deep-research backend needs an OpenAI API key: set DEEP_RESEARCH_API_KEY (or OPENAI_API_KEY).',
    );
  return { apiKey, baseURL: deepResearch.baseURL };
}

/** What `serve` needs: a bot token, and a signing secret unless Socket Mode is on. */
export function requireSlack(config: Config): Required<Pick<Config['slack'], 'botToken'>> & Config['slack'] {
  const { slack } = config;
  if (!slack.botToken) {
    throw new ConfigError(
      'missing_env',
      "SLACK_BOT_TOKEN is not set: set it to the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions.",
    );
  }
  if (!slack.appToken && !slack.signingSecret) {
    throw new ConfigError(
      'missing_env',
      'SLACK_SIGNING_SECRET is not set: set it to the Signing Secret from Basic Information, or set SLACK_APP_TOKEN for Socket Mode.',
    );
  }
  return { ...slack, botToken: slack.botToken };
}
