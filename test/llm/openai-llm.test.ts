import { PassThrough } from 'node:stream';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedTokensOf } from '../../src/llm/cached-tokens.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { ModelApis } from '../../src/llm/model-apis.js';
import { isReasoningModelName } from '../../src/llm/model-traits.js';
import { OpenAiLlm } from '../../src/llm/openai-llm.js';
import { ConfigError, ProviderError } from '../../src/ports/errors.js';
import type { LlmRequest } from '../../src/ports/llm.js';
import { silentLogger } from '../../src/ports/logger.js';

const BASE = 'http://llm.test/v1';

/** The Chat Completions wire (the Responses API's has its own tests). */
function llm(maxRetries = 3) {
  return new OpenAiLlm({
    apiKey: 'sk-test',
    baseURL: BASE,
    maxRetries,
    logger: silentLogger,
    countTokens,
    apis: new ModelApis('chat-completions'),
  });
}

/** A Chat Completions stream as the server sends it: SSE `data:` lines ending in [DONE]. */
function sse(chunks: object[]): string {
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4.1',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (prompt: number, completion: number) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4.1',
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

const request = (overrides: Partial<LlmRequest> = {}): LlmRequest => ({
  model: { name: 'gpt-4.1', reasoning: false },
  purpose: 'orchestrator',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'hi' },
  ],
  timeoutMs: 5000,
  ...overrides,
});

const SSE_HEADERS = { 'content-type': 'text/event-stream' };

afterEach(() => {
  nock.cleanAll();
});

describe('OpenAiLlm', () => {
  it('streams text deltas and captures usage', async () => {
    let body: Record<string, unknown> = {};
    const scope = nock(BASE)
      .post('/chat/completions', (b) => {
        body = b;
        return true;
      })
      .matchHeader('authorization', 'Bearer sk-test')
      .reply(
        200,
        sse([
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'Hello, ' }),
          chunk({ content: 'world' }, 'stop'),
          usageChunk(12, 3),
        ]),
        SSE_HEADERS,
      );
    const deltas: string[] = [];
    const response = await llm().complete(request({ maxTokens: 2000, onTextDelta: (d) => deltas.push(d) }));
    expect(scope.isDone()).toBe(true);
    expect(response).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 3, cachedInputTokens: 0 },
    });
    expect(deltas).toEqual(['Hello, ', 'world']);
    expect(body).toMatchObject({
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 2000,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('assembles parallel tool calls from argument deltas and sends tools with tool_choice', async () => {
    let body: Record<string, unknown> = {};
    nock(BASE)
      .post('/chat/completions', (b) => {
        body = b;
        return true;
      })
      .reply(
        200,
        sse([
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_a',
                type: 'function',
                function: { name: 'research_agent', arguments: '' },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"task": "Hist' } }] }),
          chunk({
            tool_calls: [
              {
                index: 1,
                id: 'call_b',
                type: 'function',
                function: { name: 'research_agent', arguments: '{"ta' },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ory of X"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: 'sk": "Y"}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk(50, 20),
        ]),
        SSE_HEADERS,
      );
    const response = await llm().complete(
      request({
        tools: [{ name: 'research_agent', description: 'd', parameters: { type: 'object', properties: {} } }],
        toolChoice: 'required',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'think_tool', arguments: '{"reasoning":"r"}' }],
          },
          { role: 'tool', toolCallId: 'c1', content: 'Acknowledged, please continue.' },
        ],
      }),
    );
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'research_agent', arguments: '{"task": "History of X"}' },
      { id: 'call_b', name: 'research_agent', arguments: '{"task": "Y"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(body.tool_choice).toBe('required');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'research_agent',
          description: 'd',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'think_tool', arguments: '{"reasoning":"r"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Acknowledged, please continue.' },
    ]);
  });

  it('sends max_completion_tokens and reasoning_effort to reasoning models', async () => {
    let body: Record<string, unknown> = {};
    nock(BASE)
      .post('/chat/completions', (b) => {
        body = b;
        return true;
      })
      .reply(200, sse([chunk({ content: 'ok' }, 'stop')]), SSE_HEADERS);
    await llm().complete(
      request({ model: { name: 'o4-mini', reasoning: true }, maxTokens: 9000, reasoningEffort: 'low' }),
    );
    expect(body).toMatchObject({ max_completion_tokens: 9000, reasoning_effort: 'low' });
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    const times: number[] = [];
    nock(BASE)
      .post('/chat/completions')
      .reply(() => {
        times.push(Date.now());
        return [
          429,
          { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
          { 'retry-after': '1' },
        ];
      })
      .post('/chat/completions')
      .reply(() => {
        times.push(Date.now());
        return [200, sse([chunk({ content: 'after wait' }, 'stop'), usageChunk(5, 2)]), SSE_HEADERS];
      });
    const response = await llm().complete(request());
    expect(response.text).toBe('after wait');
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx with backoff and gives up after the retry limit with a provider error', async () => {
    nock(BASE)
      .post('/chat/completions')
      .times(3)
      .reply(503, { error: { message: 'overloaded' } });
    const error = await llm(2)
      .complete(request())
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('HTTP 503');
    expect(nock.isDone()).toBe(true);
  });

  it('times out a stalled call, retries it, and stops when the caller aborts', async () => {
    nock(BASE)
      .post('/chat/completions')
      .delay(2000)
      .reply(200, sse([chunk({ content: 'late' }, 'stop')]), SSE_HEADERS);
    nock(BASE)
      .post('/chat/completions')
      .reply(200, sse([chunk({ content: 'second try' }, 'stop')]), SSE_HEADERS);
    const response = await llm().complete(request({ timeoutMs: 200 }));
    expect(response.text).toBe('second try');

    nock(BASE)
      .post('/chat/completions')
      .times(5)
      .delay(2000)
      .reply(200, sse([chunk({ content: 'late' }, 'stop')]), SSE_HEADERS);
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('session deadline')), 300);
    const started = Date.now();
    const error = await llm()
      .complete(request({ timeoutMs: 100, signal: caller.signal }))
      .catch((e) => e);
    expect(error.message).toBe('session deadline');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('retries a 200 whose stream is empty, not a completion, or truncated JSON, then reads the good answer', async () => {
    nock(BASE).post('/chat/completions').reply(200, '', SSE_HEADERS);
    nock(BASE).post('/chat/completions').reply(200, '<html>gateway</html>', SSE_HEADERS);
    nock(BASE).post('/chat/completions').reply(200, 'data: {"id":"chatcmpl-1","choi\n\n', SSE_HEADERS);
    nock(BASE)
      .post('/chat/completions')
      .reply(200, sse([chunk({ content: 'whole' }, 'stop')]), SSE_HEADERS);
    const response = await llm().complete(request());
    expect(response.text).toBe('whole');
    expect(nock.isDone()).toBe(true);

    nock(BASE).post('/chat/completions').times(2).reply(200, '', SSE_HEADERS);
    const error = await llm(1)
      .complete(request())
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('llm_bad_response');
  });

  it('abandons a request that sends nothing, or stalls mid-stream, and retries it', async () => {
    const stalled = new OpenAiLlm({
      apiKey: 'sk-test',
      baseURL: BASE,
      maxRetries: 3,
      logger: silentLogger,
      countTokens,
      firstTokenMs: 200,
      stallMs: 200,
      apis: new ModelApis('chat-completions'),
    });
    nock(BASE)
      .post('/chat/completions')
      .delay(5000)
      .reply(200, sse([chunk({ content: 'never' }, 'stop')]), SSE_HEADERS);
    nock(BASE)
      .post('/chat/completions')
      .reply(
        200,
        () => {
          // One chunk, then silence: the stream never ends by itself.
          const body = new PassThrough();
          body.write(`data: ${JSON.stringify(chunk({ content: 'par' }))}\n\n`);
          return body;
        },
        SSE_HEADERS,
      );
    nock(BASE)
      .post('/chat/completions')
      .reply(200, sse([chunk({ content: 'third try' }, 'stop')]), SSE_HEADERS);
    const started = Date.now();
    const response = await stalled.complete(request({ timeoutMs: 60_000 }));
    expect(response.text).toBe('third try');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('never puts the API key a server echoes into its error', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(400, {
        error: {
          message: 'Bad request for key sk-test-echoed-1234567890 (Bearer sk-test-echoed-1234567890)',
        },
      });
    const error = await llm()
      .complete(request())
      .catch((e) => e);
    expect(error.message).toContain('HTTP 400');
    expect(error.message).not.toContain('echoed');
  });

  it('reports a rejected key and an unknown model as configuration errors without retrying', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(401, { error: { message: 'Incorrect API key provided' } });
    await expect(llm().complete(request())).rejects.toThrow(ConfigError);
    nock(BASE)
      .post('/chat/completions')
      .reply(404, { error: { message: 'model not found' } });
    await expect(llm().complete(request())).rejects.toThrow(/does not know model "gpt-4.1".*RESEARCH_MODEL/);
    expect(nock.isDone()).toBe(true);
  });

  it('estimates usage with the tokenizer when the server reports none', async () => {
    nock(BASE)
      .post('/chat/completions')
      .reply(200, sse([chunk({ content: 'four words right here' }, 'stop')]), SSE_HEADERS);
    const response = await llm().complete(request());
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBe(countTokens('four words right here'));
  });
});

describe('isReasoningModelName', () => {
  it('recognises reasoning model families by name', () => {
    for (const name of [
      'o3',
      'o4-mini',
      'gpt-5.1',
      'gpt-5-mini',
      'deepseek-r1',
      'openai/o3-mini',
      'qwen3-thinking',
    ]) {
      expect(isReasoningModelName(name)).toBe(true);
    }
    for (const name of ['gpt-4.1', 'gpt-4o-mini', 'gpt-5-chat-latest', 'llama3.1:8b', 'mistral-large']) {
      expect(isReasoningModelName(name)).toBe(false);
    }
  });
});

describe('cachedTokensOf', () => {
  it.each([
    ['OpenAI, vLLM, OpenRouter', { prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 64 } }, 64],
    ['DeepSeek', { prompt_tokens: 100, prompt_cache_hit_tokens: 32, prompt_cache_miss_tokens: 68 }, 32],
    ['Moonshot', { prompt_tokens: 100, cached_tokens: 16 }, 16],
    ['a server that says nothing', { prompt_tokens: 100 }, 0],
    ['a null details object', { prompt_tokens: 100, prompt_tokens_details: null }, 0],
    ['garbage', { prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 'many' } }, 0],
  ])('reads %s', (_, usage, expected) => {
    expect(cachedTokensOf(usage)).toBe(expected);
  });
});
