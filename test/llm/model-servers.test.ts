import { readFileSync } from 'node:fs';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { engineDeps } from '../../src/compose.js';
import { loadConfig } from '../../src/config/load-config.js';
import { TOOL_REMINDER } from '../../src/llm/server-adaptations.js';
import { ConfigError, ProviderError } from '../../src/ports/errors.js';
import type { LlmRequest, ToolChoice } from '../../src/ports/llm.js';
import type { Logger } from '../../src/ports/logger.js';

const FIXTURES = new URL('../fixtures/model-servers/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

/** The README's recipe for each server: the environment an operator sets. */
const RECIPES = {
  ollama: { OPENAI_BASE_URL: 'http://localhost:11434/v1', RESEARCH_MODEL: 'qwen3:8b' },
  vllm: { OPENAI_BASE_URL: 'http://localhost:8000/v1', RESEARCH_MODEL: 'Qwen/Qwen3-32B' },
  lmstudio: { OPENAI_BASE_URL: 'http://localhost:1234/v1', RESEARCH_MODEL: 'qwen2.5-7b-instruct' },
  openrouter: {
    OPENAI_BASE_URL: 'https://openrouter.ai/api/v1',
    OPENAI_API_KEY: 'sk-or-v1-test',
    RESEARCH_MODEL: 'deepseek/deepseek-r1',
  },
  azure: {
    OPENAI_BASE_URL: 'https://contoso-research.openai.azure.com/openai/v1',
    OPENAI_API_KEY: 'azure-key-test',
    RESEARCH_MODEL: 'gpt-4.1',
  },
} as const;
type Server = keyof typeof RECIPES;

interface Logged {
  level: string;
  msg: string;
  obj: object;
}

/** The adapter exactly as the app composes it from the recipe's environment. */
function adapterFor(server: Server) {
  const logged: Logged[] = [];
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      logged.push({ level, msg, obj });
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  const config = loadConfig({ ...RECIPES[server], OPENAI_MAX_RETRIES: '1' });
  const { llm } = engineDeps(config, logger);
  const complete = (overrides: Partial<LlmRequest> = {}) =>
    llm.complete({
      model: { name: config.models.orchestrator, reasoning: false },
      purpose: 'orchestrator',
      messages: [
        { role: 'system', content: 'You are a research orchestrator.' },
        { role: 'user', content: 'Do heat pumps work in cold climates?' },
      ],
      tools: [{ name: 'web_search', description: 'Search the web', parameters: { type: 'object' } }],
      toolChoice: 'required' as ToolChoice,
      timeoutMs: 10_000,
      ...overrides,
    });
  const adapted = () => logged.filter((l) => l.msg.startsWith('model server adapted'));
  return { complete, logged, adapted };
}

/**
 * Intercepts the recipe's base URL; records each request body. The first call
 * goes to /responses (MODEL_API=auto), which these recordings' servers do not
 * serve: a 404 as llama.cpp's and Ollama's routers answer, once, then Chat Completions.
 */
function serve(server: Server, ...answers: { status: number; body: string }[]) {
  const bodies: Record<string, unknown>[] = [];
  const base = new URL(RECIPES[server].OPENAI_BASE_URL);
  let scope = nock(base.origin)
    .post(`${base.pathname}/responses`)
    .reply(404, '404 page not found', { 'content-type': 'text/plain' });
  for (const answer of answers) {
    scope = scope
      .post(`${base.pathname}/chat/completions`, (body) => {
        bodies.push(body);
        return true;
      })
      .reply(answer.status, answer.body, {
        'content-type': answer.status === 200 ? 'text/event-stream' : 'application/json',
      });
  }
  return { bodies, done: () => scope.isDone() };
}
const stream = (name: string) => ({ status: 200, body: fixture(name) });
const rejected = (name: string) => ({ status: 400, body: fixture(name) });

afterEach(() => {
  nock.cleanAll();
});

describe('model servers, replayed from their wire formats', () => {
  it('Ollama: a whole tool call in one chunk, thinking in `reasoning` kept out of the answer', async () => {
    const server = serve('ollama', stream('ollama-tool-calls.sse'));
    const { complete, adapted } = adapterFor('ollama');
    const response = await complete();
    expect(server.done()).toBe(true);
    expect(server.bodies[0]).toMatchObject({ model: 'qwen3:8b', tool_choice: 'required', stream: true });
    expect(response).toEqual({
      text: '',
      toolCalls: [
        {
          id: 'call_k2v8r1qz',
          name: 'web_search',
          arguments: '{"query":"heat pump efficiency below -20C field study"}',
        },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1843, outputTokens: 61, cachedInputTokens: 0 },
    });
    expect(adapted()).toEqual([]);
  });

  it('older Ollama: calls without `index` stay separate; missing usage is estimated, adapted once', async () => {
    serve('ollama', stream('ollama-legacy-tool-calls.sse'), stream('ollama-legacy-tool-calls.sse'));
    const { complete, adapted } = adapterFor('ollama');
    const response = await complete();
    expect(response.toolCalls).toEqual([
      { id: 'call_a1b2c3d4', name: 'web_search', arguments: '{"query":"heat pump cold climate"}' },
      { id: 'call_e5f6g7h8', name: 'think', arguments: '{"thought":"Compare field studies next."}' },
    ]);
    expect(response.usage.inputTokens).toBeGreaterThan(5);
    expect(response.usage.outputTokens).toBeGreaterThan(5);
    await complete();
    expect(adapted().map((l) => l.obj)).toEqual([{ model: 'qwen3:8b', adaptation: 'usage_estimated' }]);
  });

  it('Ollama: a model without tool support is a configuration error naming RESEARCH_MODEL, not retried', async () => {
    const server = serve('ollama', rejected('ollama-no-tools.json'));
    const { complete } = adapterFor('ollama');
    const error = await complete().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Model "qwen3:8b" cannot call tools on this server: choose a model with tool calling in RESEARCH_MODEL.',
    );
    expect(server.done()).toBe(true);
  });

  it('vLLM: name and argument deltas of two parallel calls assembled; `reasoning_content` ignored', async () => {
    serve('vllm', stream('vllm-tool-calls.sse'));
    const { complete } = adapterFor('vllm');
    const response = await complete();
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([
      {
        id: 'chatcmpl-tool-6a1e0c',
        name: 'research_agent',
        arguments: '{"task": "Find field studies of heat pump COP below -20C"}',
      },
      {
        id: 'chatcmpl-tool-b73f21',
        name: 'research_agent',
        arguments: '{"task": "Installed cost of cold-climate heat pumps"}',
      },
    ]);
    expect(response.usage).toEqual({ inputTokens: 2210, outputTokens: 88, cachedInputTokens: 0 });
  });

  it('vLLM rejecting tool_choice "required": retried at once with "auto" and a reminder, then every call adapted', async () => {
    const server = serve(
      'vllm',
      rejected('vllm-required-rejected.json'),
      stream('vllm-tool-calls.sse'),
      stream('vllm-tool-calls.sse'),
    );
    const { complete, adapted } = adapterFor('vllm');
    expect((await complete()).toolCalls).toHaveLength(2);
    expect((await complete()).toolCalls).toHaveLength(2);
    expect(server.done()).toBe(true);
    expect(server.bodies.map((b) => b.tool_choice)).toEqual(['required', 'auto', 'auto']);
    const systems = server.bodies.map((b) => (b.messages as { content: string }[])[0]!.content);
    expect(systems[0]).toBe('You are a research orchestrator.');
    expect(systems[1]).toBe(`You are a research orchestrator.\n\n${TOOL_REMINDER}`);
    // The same text on every later call, so the server's prefix cache still matches.
    expect(systems[2]).toBe(systems[1]);
    expect(adapted()).toHaveLength(1);
    expect(adapted()[0]).toMatchObject({ level: 'warn', obj: { adaptation: 'tool_choice_auto' } });
    // Calls that never asked for "required" are sent as asked.
    serve('vllm', stream('vllm-tool-calls.sse'));
    await complete({ toolChoice: 'none' });
  });

  it('vLLM without --enable-auto-tool-choice: a configuration error saying which flags to set', async () => {
    serve('vllm', rejected('vllm-no-auto-tool-choice.json'));
    const { complete } = adapterFor('vllm');
    await expect(complete({ toolChoice: 'auto' })).rejects.toThrow(
      'The model server cannot call tools: start vLLM with --enable-auto-tool-choice and a --tool-call-parser for the model.',
    );
  });

  it('vLLM without a reasoning parser: the leading <think> block, split across chunks, never reaches the text', async () => {
    serve('vllm', stream('vllm-think-tags.sse'));
    const { complete, adapted } = adapterFor('vllm');
    const deltas: string[] = [];
    const response = await complete({
      purpose: 'plan',
      tools: undefined,
      toolChoice: undefined,
      onTextDelta: (d) => deltas.push(d),
    });
    const plan = '1. Measured efficiency below -20 °C\n2. Installed cost\n3. Backup heat';
    expect(response.text).toBe(plan);
    expect(deltas.join('')).toBe(plan);
    expect(adapted().map((l) => (l.obj as { adaptation: string }).adaptation)).toEqual([
      'think_tags_removed',
    ]);
  });

  it('LM Studio: arguments in fragments and no usage chunk', async () => {
    serve('lmstudio', stream('lmstudio-tool-calls.sse'));
    const { complete, adapted } = adapterFor('lmstudio');
    const response = await complete();
    expect(response.toolCalls).toEqual([
      { id: '365174485', name: 'open_url', arguments: '{"url":"https://example.org/heat-pumps"}' },
    ]);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    expect(adapted().map((l) => (l.obj as { adaptation: string }).adaptation)).toEqual(['usage_estimated']);
  });

  it('OpenRouter: comments and reasoning skipped, cached tokens read, the key sent as a bearer token', async () => {
    const base = new URL(RECIPES.openrouter.OPENAI_BASE_URL);
    const scope = nock(base.origin)
      .post(`${base.pathname}/responses`)
      .reply(404, '404 page not found')
      .post(`${base.pathname}/chat/completions`)
      .matchHeader('authorization', 'Bearer sk-or-v1-test')
      .reply(200, fixture('openrouter-tool-calls.sse'), { 'content-type': 'text/event-stream' });
    const { complete } = adapterFor('openrouter');
    const response = await complete();
    expect(scope.isDone()).toBe(true);
    expect(response).toMatchObject({
      text: '',
      toolCalls: [
        { id: 'call_0_f1c2', name: 'web_search', arguments: '{"query":"NEEP cold climate heat pump list"}' },
      ],
      usage: { inputTokens: 3120, outputTokens: 140, cachedInputTokens: 2048 },
    });
  });

  it('OpenRouter: a provider failing mid-answer is a retried provider error, and the retry succeeds', async () => {
    const server = serve(
      'openrouter',
      stream('openrouter-midstream-error.sse'),
      stream('openrouter-tool-calls.sse'),
    );
    const { complete, logged } = adapterFor('openrouter');
    const response = await complete();
    expect(server.done()).toBe(true);
    expect(response.toolCalls).toHaveLength(1);
    expect(logged.find((l) => l.msg === 'model call failed; retrying')?.obj).toMatchObject({
      code: 'llm_stream_error',
    });
  });

  it('Azure OpenAI: filter-result chunks without choices skipped, text and cached tokens read', async () => {
    serve('azure', stream('azure-text.sse'));
    const { complete, adapted } = adapterFor('azure');
    const response = await complete({ tools: undefined, toolChoice: undefined });
    expect(response).toEqual({
      text: '1. Field efficiency\n2. Cost',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 1520, outputTokens: 9, cachedInputTokens: 1280 },
    });
    expect(adapted()).toEqual([]);
  });

  it('Azure OpenAI: the content filter stopping the answer is said plainly and not retried', async () => {
    const server = serve('azure', stream('azure-content-filter.sse'));
    const { complete } = adapterFor('azure');
    const error = await complete().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'llm_content_filter', retryable: false });
    expect(server.done()).toBe(true);
  });
});
