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
    const notFound = {
      error: {
        message: 'The model `gpt-4.5-preview` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    };
    // Each API is asked once (a server may serve a model on one only), neither again.
    const scope = nock(BASE)
      .post('/v1/responses')
      .reply(404, notFound)
      .post('/v1/chat/completions')
      .reply(404, notFound)
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

  it('says that a GPT-5.5 forced onto Chat Completions needs MODEL_API=auto, instead of an HTTP 400', async () => {
    const scope = nock(BASE).post('/v1/chat/completions').reply(400, OPENAI_TOOLS_REFUSAL);
    const error = await adapter({ ORCHESTRATOR_MODEL: 'gpt-5.5', MODEL_API: 'chat-completions' })
      .complete()
      .catch((e: unknown) => e);
    expect(scope.isDone()).toBe(true);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Model "gpt-5.5" cannot call tools through Chat Completions (its server serves them on the Responses API only): set MODEL_API=auto (or responses), or choose a model that calls tools on Chat Completions.',
    );
  });

  it('moves a model Chat Completions refuses tools for onto the Responses API, once', async () => {
    const scope = nock(BASE)
      // A server that has no Responses route for it at first (a proxy), then points there.
      .post('/v1/responses')
      .reply(404, 'Not Found')
      .post('/v1/chat/completions')
      .reply(400, OPENAI_TOOLS_REFUSAL)
      .post('/v1/responses')
      .reply(200, responsesStream('web_search'), { 'content-type': 'text/event-stream' });
    const { complete, models } = adapter({ RESEARCH_MODEL: 'gpt-5.5' });
    const response = await complete();
    expect(scope.isDone()).toBe(true);
    expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'web_search', arguments: '{"query":"q"}' }]);
    expect(models.health().apis).toEqual({
      'gpt-5.5': 'the Responses API (Chat Completions refuses its tools and points at the Responses API)',
    });
  });
});

/** OpenAI's answer to function tools with reasoning on /v1/chat/completions for gpt-5.4 and later. */
const OPENAI_TOOLS_REFUSAL = {
  error: {
    message:
      'Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses instead.',
    type: 'invalid_request_error',
    param: 'reasoning_effort',
    code: null,
  },
};

function responsesStream(tool: string): string {
  const response = {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    output: [
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: tool, arguments: '{"query":"q"}' },
    ],
    usage: { input_tokens: 10, output_tokens: 5, input_tokens_details: { cached_tokens: 0 } },
  };
  return `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response })}\n\n`;
}
