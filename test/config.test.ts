import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { requireModelAccess } from '../src/config/requirements.js';
import { ConfigError } from '../src/ports/errors.js';

describe('loadConfig', () => {
  it('applies the reference defaults', () => {
    const config = loadConfig({});
    expect(config.limits).toEqual({
      maxParallelAgents: 3,
      maxCycles: null,
      maxAgentCycles: 8,
      timeBudgetMs: 20 * 60_000,
      agentTimeBudgetMs: 12 * 60_000,
      tokenBudget: 2_000_000,
      toolCallBudget: 200,
      toolTimeoutMs: 60_000,
      reportInputTokens: 120_000,
    });
    expect(config.models).toMatchObject({
      orchestrator: 'gpt-5.5',
      agent: 'gpt-5.5',
      report: 'gpt-5.5',
      reasoning: 'auto',
    });
    expect(config.openai.api).toBe('auto');
    expect(config.search.provider).toBeNull();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads limits, per-phase models, prices and picks the first configured search provider', () => {
    const config = loadConfig({
      RESEARCH_MODEL: 'gpt-4.1',
      REPORT_MODEL: 'gpt-5.1',
      MAX_PARALLEL_AGENTS: '2',
      MAX_CYCLES: '5',
      TIME_BUDGET_MINUTES: '0.5',
      MODEL_PRICES: '{"my-model":{"input":1,"output":4}}',
      BRAVE_API_KEY: 'b',
      SEARXNG_URL: 'http://searx:8080',
      TOKEN_BUDGET: '',
    });
    expect(config.models).toMatchObject({ orchestrator: 'gpt-4.1', agent: 'gpt-4.1', report: 'gpt-5.1' });
    expect(config.limits).toMatchObject({
      maxParallelAgents: 2,
      maxCycles: 5,
      timeBudgetMs: 30_000,
      tokenBudget: 2_000_000,
    });
    expect(config.prices.models['my-model']).toEqual({ input: 1, output: 4 });
    expect(config.prices.models['gpt-4.1']).toBeDefined();
    expect(config.search.provider).toBe('brave');
    expect(loadConfig({ SEARCH_PROVIDER: 'none', TAVILY_API_KEY: 't' }).search.provider).toBe('none');
  });

  it('fails with one line naming the bad variable and what to set', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TIME_BUDGET_MINUTES: 'soon' }, /^TIME_BUDGET_MINUTES is invalid \(got "soon"\): .*; set it to/],
      [
        { MAX_PARALLEL_AGENTS: '50' },
        /^MAX_PARALLEL_AGENTS is invalid.*set it to a whole number from 1 to 10\.$/,
      ],
      [
        { SEARCH_PROVIDER: 'google' },
        /^SEARCH_PROVIDER is invalid.*set it to tavily, brave, exa, searxng or none\.$/,
      ],
      [{ OPENAI_BASE_URL: 'not a url' }, /^OPENAI_BASE_URL is invalid/],
      [
        { OPENAI_BASE_URL: 'localhost:11434' },
        /^OPENAI_BASE_URL is invalid \(got "localhost:11434"\): must be an http:\/\/ or https:\/\/ URL; set it to the base URL of an OpenAI-compatible server, e.g. http:\/\/localhost:11434\/v1\.$/,
      ],
      [
        { OPENAI_BASE_URL: 'http://127.0.0.1:6000/v1' },
        /^OPENAI_BASE_URL is invalid \(got "http:\/\/127\.0\.0\.1:6000\/v1"\): uses port 6000, which HTTP clients refuse to connect to \(a blocked port\): run the server on another port; set it to the base URL/,
      ],
      [
        { SEARXNG_URL: 'ftp://search.local' },
        /^SEARXNG_URL is invalid.*must be an http:\/\/ or https:\/\/ URL/,
      ],
      [{ MODEL_PRICES: '{oops' }, /^MODEL_PRICES is invalid.*must be JSON/],
      [
        { DATABASE_URL: 'mysql://root:hunter2@db' },
        /^DATABASE_URL is invalid: must start with postgres:\/\/; set it to/,
      ],
    ];
    for (const [env, message] of cases) {
      const error = (() => {
        try {
          loadConfig(env);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error!.message).toMatch(message);
      expect(error!.message).not.toContain('\n');
      expect(error!.message).not.toContain('hunter2');
    }
  });

  it('requires a key unless a compatible server is named', () => {
    expect(() => requireModelAccess(loadConfig({}))).toThrow(/^OPENAI_API_KEY is not set: set it to/);
    expect(requireModelAccess(loadConfig({ OPENAI_API_KEY: 'k' }))).toEqual({
      apiKey: 'k',
      baseURL: undefined,
    });
    expect(requireModelAccess(loadConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })).baseURL).toBe(
      'http://localhost:11434/v1',
    );
  });
});
