import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { engineDeps, modelLifecycle } from '../../src/compose.js';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/ports/errors.js';
import { silentLogger } from '../../src/ports/logger.js';
import { CURRENT_MODELS } from '../fakes/fake-responses-api.js';

const BASE = 'https://api.openai.test';

afterEach(() => {
  nock.cleanAll();
});

/** The research model adapter as the app composes it (with the lifecycle watch), on OpenAI's wire answers. */
function adapter(env: Record<string, string>) {
  const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${BASE}/v1`, ...env });
  const models = modelLifecycle(config);
  const { llm } = engineDeps(config, silentLogger, { models });
  return {
    models,
    complete: () =>
      llm.complete({
        model: { name: config.models.orchestrator, reasoning: true },
        purpose: 'orchestrator',
        messages: [{ role: 'user', content: 'Do heat pumps work in cold climates?' }],
        tools: [{ name: 'web_search', description: 'Search the web', parameters: { type: 'object' } }],
        toolChoice: 'required',
        timeoutMs: 10_000,
      }),
  };
}

describe('OpenAI refusing a research model', () => {
  it('answers model_not_found with the sentence naming the variable and the models offered, not retried', async () => {
    const scope = nock(BASE)
      .post('/v1/chat/completions')
      .reply(404, {
        error: {
          message: 'The model `gpt-4.5-preview` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      })
      .get('/v1/models')
      .reply(200, { object: 'list', data: CURRENT_MODELS.map((m) => ({ object: 'model', ...m })) });
    const { complete, models } = adapter({ RESEARCH_MODEL: 'gpt-4.5-preview', LLM_MAX_RETRIES: '3' });
    const error = await complete().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `The model server at ${BASE}/v1 does not offer gpt-4.5-preview, which RESEARCH_MODEL names: set RESEARCH_MODEL to a model it offers (gpt-5.5-pro, gpt-5.5, gpt-5.4-mini, gpt-5.4, gpt-5.1).`,
    );
    expect(scope.isDone()).toBe(true);
    expect(models.health().degraded).toBe((error as Error).message);
  });

  it('says that a GPT-5.5 needs the Responses API for tools with reasoning, instead of an HTTP 400', async () => {
    nock(BASE)
      .post('/v1/chat/completions')
      .reply(400, {
        error: {
          message:
            'Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses instead.',
          type: 'invalid_request_error',
          param: 'reasoning_effort',
          code: null,
        },
      });
    const error = await adapter({ ORCHESTRATOR_MODEL: 'gpt-5.5' })
      .complete()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^Model "gpt-5\.5" cannot call tools through Chat Completions with reasoning on .*: choose gpt-5\.1 for RESEARCH_MODEL .*RESEARCH_BACKEND=deep-research-api/,
    );
  });
});
