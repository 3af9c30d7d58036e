import { readFileSync } from 'node:fs';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/llm/count-tokens.js';
import { ModelApis } from '../../src/llm/model-apis.js';
import { OpenAiLlm } from '../../src/llm/openai-llm.js';
import { ProviderError } from '../../src/ports/errors.js';
import type { ChatMessage, LlmRequest } from '../../src/ports/llm.js';
import { silentLogger } from '../../src/ports/logger.js';

const BASE = 'https://api.openai.test/v1';
const SSE = { 'content-type': 'text/event-stream' };
const recorded = readFileSync(
  new URL('../fixtures/model-servers/openai-responses-tool-calls.sse', import.meta.url),
  'utf8',
);

function llm(setting: 'responses' | 'auto' = 'responses') {
  return new OpenAiLlm({
    apiKey: 'sk-test',
    baseURL: BASE,
    maxRetries: 2,
    logger: silentLogger,
    countTokens,
    apis: new ModelApis(setting),
  });
}

const tools = [
  { name: 'web_search', description: 'Search the web', parameters: { type: 'object' } },
  { name: 'open_url', description: 'Read a page', parameters: { type: 'object' } },
];
const request = (overrides: Partial<LlmRequest> = {}): LlmRequest => ({
  model: { name: 'gpt-5.5', reasoning: true },
  purpose: 'agent',
  messages: [
    { role: 'system', content: 'You research.' },
    { role: 'user', content: 'Do heat pumps work in cold climates?' },
  ],
  tools,
  toolChoice: 'required',
  maxTokens: 9000,
  reasoningEffort: 'low',
  timeoutMs: 10_000,
  ...overrides,
});

/** A Responses stream of one final event (what some servers send when nothing streams). */
function finalOnly(type: 'response.completed' | 'response.incomplete' | 'response.failed', response: object) {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: 0, response: { id: 'resp_x', object: 'response', output: [], ...response } })}\n\n`;
}

afterEach(() => {
  nock.cleanAll();
});

/** What the server was sent, request by request: pass `sent.record` as nock's body matcher. */
function requestsSent() {
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    last: () => bodies.at(-1) as Record<string, unknown> & { input?: unknown[] },
    record: (b: Record<string, unknown>) => {
      bodies.push(b);
      return true;
    },
  };
}

/** The code of the provider error a call ends with. */
async function failureCode(call: Promise<unknown>): Promise<string> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return (error as ProviderError).code;
}

describe('the Responses API wire, replayed from OpenAI', () => {
  it('sends a stateless turn and reads calls, streamed text, sealed reasoning and usage', async () => {
    const sent = requestsSent();
    const scope = nock(BASE).post('/responses', sent.record).reply(200, recorded, SSE);
    const deltas: string[] = [];
    const response = await llm().complete(request({ onTextDelta: (d) => deltas.push(d) }));
    expect(scope.isDone()).toBe(true);
    expect(sent.last()).toMatchObject({
      model: 'gpt-5.5',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low' },
      max_output_tokens: 9000,
      tool_choice: 'required',
      tools: [
        { type: 'function', name: 'web_search', description: 'Search the web', strict: false },
        { type: 'function', name: 'open_url', description: 'Read a page', strict: false },
      ],
      input: [
        { role: 'system', content: 'You research.' },
        { role: 'user', content: 'Do heat pumps work in cold climates?' },
      ],
    });
    expect(sent.last()).not.toHaveProperty('previous_response_id');
    expect(deltas.join('')).toBe('Searching two angles.');
    expect(response).toEqual({
      text: 'Searching two angles.',
      toolCalls: [
        { id: 'call_Xy12', name: 'web_search', arguments: '{"query":"cold climate heat pump COP -15C"}' },
        { id: 'call_Zw34', name: 'open_url', arguments: '{"url":"https://neep.org/ashp"}' },
      ],
      finishReason: 'tool_calls',
      reasoning: [{ id: 'rs_0a1b2c01', encrypted: 'gAAAAABpSEALEDREASONING-turn-1==' }],
      usage: { inputTokens: 5210, cachedInputTokens: 4096, outputTokens: 388, reasoningTokens: 256 },
    });
  });

  it('sends the reasoning back with its turn, before its calls, and each result as a call output', async () => {
    const sent = requestsSent();
    nock(BASE).post('/responses', sent.record).reply(200, recorded, SSE);
    const history: ChatMessage[] = [
      { role: 'system', content: 'You research.' },
      { role: 'user', content: 'Do heat pumps work in cold climates?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'a1.1-0', name: 'web_search', arguments: '{"query":"q"}' }],
        reasoning: [{ id: 'rs_1', encrypted: 'SEALED-1' }],
      },
      { role: 'tool', toolCallId: 'a1.1-0', content: '[1] A page' },
      // A turn that said nothing: its reasoning, followed by nothing, would be refused.
      { role: 'assistant', content: '', reasoning: [{ id: 'rs_2', encrypted: 'SEALED-2' }] },
      { role: 'user', content: 'Respond only with tool calls.' },
    ];
    await llm().complete(request({ messages: history }));
    expect(sent.last().input).toEqual([
      { role: 'system', content: 'You research.' },
      { role: 'user', content: 'Do heat pumps work in cold climates?' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'SEALED-1' },
      { type: 'function_call', call_id: 'a1.1-0', name: 'web_search', arguments: '{"query":"q"}' },
      { type: 'function_call_output', call_id: 'a1.1-0', output: '[1] A page' },
      { role: 'user', content: 'Respond only with tool calls.' },
    ]);
  });

  it('resumes a conversation checkpointed on Chat Completions (no reasoning kept) as valid input', async () => {
    const sent = requestsSent();
    nock(BASE).post('/responses', sent.record).reply(200, recorded, SSE);
    // The port's history as a checkpoint written before this adapter existed stores it.
    const checkpointed: ChatMessage[] = JSON.parse(
      JSON.stringify([
        { role: 'system', content: 'You orchestrate.' },
        { role: 'user', content: 'Plan: 1. costs' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'cycle1-0', name: 'web_search', arguments: '{}' }],
        },
        { role: 'tool', toolCallId: 'cycle1-0', content: 'Found 3 pages' },
        { role: 'assistant', content: 'I answered in text.' },
        { role: 'user', content: 'Respond only with tool calls.' },
      ]),
    );
    const response = await llm().complete(request({ messages: checkpointed }));
    expect(sent.last().input).toEqual([
      { role: 'system', content: 'You orchestrate.' },
      { role: 'user', content: 'Plan: 1. costs' },
      { type: 'function_call', call_id: 'cycle1-0', name: 'web_search', arguments: '{}' },
      { type: 'function_call_output', call_id: 'cycle1-0', output: 'Found 3 pages' },
      { role: 'assistant', content: 'I answered in text.' },
      { role: 'user', content: 'Respond only with tool calls.' },
    ]);
    expect(response.toolCalls).toHaveLength(2);
  });

  it('asks for strict JSON through text.format, and keeps no reasoning fields for a model that does not reason', async () => {
    const sent = requestsSent();
    nock(BASE)
      .post('/responses', sent.record)
      .reply(
        200,
        finalOnly('response.completed', {
          status: 'completed',
          output: [
            {
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: '{"supported":true}', annotations: [] }],
            },
          ],
          usage: { input_tokens: 50, output_tokens: 6 },
        }),
        SSE,
      );
    const schema = { type: 'object', properties: { supported: { type: 'boolean' } } };
    const response = await llm().complete(
      request({
        model: { name: 'gpt-4.1', reasoning: false },
        tools: undefined,
        toolChoice: undefined,
        jsonSchema: { name: 'citation_check', schema },
      }),
    );
    expect(sent.last()).toMatchObject({
      text: { format: { type: 'json_schema', name: 'citation_check', schema, strict: true } },
    });
    expect(sent.last()).not.toHaveProperty('include');
    expect(sent.last()).not.toHaveProperty('reasoning');
    expect(response).toMatchObject({
      text: '{"supported":true}',
      finishReason: 'stop',
      usage: { inputTokens: 50, outputTokens: 6, cachedInputTokens: 0 },
    });
  });

  it('retries a response the server failed, reads a cut-off one as "length", and stops at the content filter', async () => {
    nock(BASE)
      .post('/responses')
      .reply(
        200,
        finalOnly('response.failed', {
          status: 'failed',
          error: { code: 'server_error', message: 'The server had an error.' },
        }),
        SSE,
      )
      .post('/responses')
      .reply(
        200,
        finalOnly('response.incomplete', {
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          usage: { input_tokens: 9, output_tokens: 16 },
        }),
        SSE,
      );
    const cut = await llm().complete(request());
    expect(cut).toMatchObject({ finishReason: 'length', text: '', toolCalls: [] });
    expect(nock.isDone()).toBe(true);

    nock(BASE)
      .post('/responses')
      .reply(
        200,
        finalOnly('response.incomplete', {
          status: 'incomplete',
          incomplete_details: { reason: 'content_filter' },
        }),
        SSE,
      );
    expect(await failureCode(llm().complete(request()))).toBe('llm_content_filter');
    expect(nock.isDone()).toBe(true);
  });

  it('a stream that ends without a final response is retried, then said as an unreadable answer', async () => {
    const partial = recorded.split('event: response.completed')[0]!;
    nock(BASE).post('/responses').times(3).reply(200, partial, SSE);
    expect(await failureCode(llm().complete(request()))).toBe('llm_bad_response');
    expect(nock.isDone()).toBe(true);
  });

  it('a server refusing sealed reasoning is asked again at once without it, and from then on', async () => {
    const { bodies, record } = requestsSent();
    nock(BASE)
      .post('/responses', record)
      .reply(400, { error: { message: "Unsupported parameter: 'include' is not supported by this server." } })
      .post('/responses', record)
      .times(2)
      .reply(200, recorded, SSE);
    const shared = llm();
    const history: ChatMessage[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'web_search', arguments: '{}' }],
        reasoning: [{ id: 'rs_1', encrypted: 'SEALED' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'r' },
    ];
    await shared.complete(request({ messages: history }));
    await shared.complete(request({ messages: history }));
    expect(nock.isDone()).toBe(true);
    expect(bodies.map((b) => 'include' in b)).toEqual([true, false, false]);
    expect(JSON.stringify(bodies[2])).not.toContain('SEALED');
    expect(bodies[2]).toMatchObject({ reasoning: { effort: 'low' } });
  });

  it('auto: concurrent first calls wait for the first to decide, so a server without the route is asked once', async () => {
    const scope = nock(BASE)
      .post('/responses')
      .delay(100)
      .reply(404, '<html>Not Found</html>')
      .post('/chat/completions')
      .times(3)
      .reply(
        200,
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        SSE,
      );
    const shared = llm('auto');
    const plain = request({
      model: { name: 'qwen3:8b', reasoning: false },
      tools: undefined,
      toolChoice: undefined,
    });
    const answers = await Promise.all([
      shared.complete(plain),
      shared.complete(plain),
      shared.complete(plain),
    ]);
    expect(answers.map((a) => a.text)).toEqual(['ok', 'ok', 'ok']);
    expect(scope.isDone()).toBe(true);
    expect(shared.apis.describe(BASE, 'qwen3:8b')).toBe(
      'Chat Completions (the server has no Responses API (HTTP 404))',
    );
  });
});
