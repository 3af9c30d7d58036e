import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage, Llm, LlmPurpose, ToolSpec } from '../../src/ports/llm.js';
import {
  chatToolsRefusal,
  type FakeModelServerOptions,
  refusesToolsOnChat,
  responsesRoute,
  type ServedCall,
} from './fake-responses-route.js';
import { readBody } from './read-body.js';

export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface WireRequest {
  model: string;
  messages: WireMessage[];
  tools?: { function: { name: string; description: string; parameters: Record<string, unknown> } }[];
  tool_choice?: string;
  response_format?: { type: string; json_schema?: { name: string } };
}

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 that answers with
 * a fake `Llm`, streamed in the real SSE wire format. It lets tests run the
 * real composition (config → OpenAiLlm → engine) with a scripted model. The
 * purpose of each call is recovered from its tools and system prompt.
 * `garbage` makes it a broken server for some calls.
 */
export async function fakeOpenAiServer(llm: Llm, options: FakeModelServerOptions = {}) {
  const requests: WireRequest[] = [];
  /** Each call as it came: which API, for which step, and (Responses API) whether every earlier turn carried its reasoning. */
  const calls: ServedCall[] = [];
  const responses = options.openai ? responsesRoute(llm, calls) : undefined;
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && responses && req.url?.endsWith('/responses')) {
      const chatShaped = await responses(req, res);
      if (chatShaped) requests.push(chatShaped);
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      // What llama.cpp and most proxies answer for a route they do not serve.
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(await readBody(req)) as WireRequest;
    requests.push(body);
    const refused = options.openai && body.tools?.length && refusesToolsOnChat(body.model);
    calls.push({
      api: 'chat-completions',
      purpose: purposeOf(body),
      model: body.model,
      refused: Boolean(refused),
    });
    if (refused) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify(chatToolsRefusal(body.model)));
      return;
    }
    try {
      if (options.garbage?.(purposeOf(body))) {
        // HTTP 200 with an answer cut off mid-JSON, as a broken proxy or an overloaded server sends.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          'data: {"id":"chatcmpl-fake","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Th',
        );
        return;
      }
      const reply = await llm.complete({
        model: { name: body.model, reasoning: false },
        purpose: purposeOf(body),
        messages: body.messages.map(toChatMessage),
        ...(body.response_format?.json_schema
          ? { jsonSchema: { name: body.response_format.json_schema.name, schema: {} } }
          : {}),
        tools: body.tools?.map((t): ToolSpec => ({ ...t.function })),
        timeoutMs: 60_000,
      });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      if (reply.text) res.write(chunk({ content: reply.text }));
      reply.toolCalls.forEach((call, index) => {
        res.write(
          chunk({
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              },
            ],
          }),
        );
      });
      res.write(chunk({}, reply.toolCalls.length ? 'tool_calls' : 'stop'));
      const usage = {
        prompt_tokens: reply.usage.inputTokens,
        completion_tokens: reply.usage.outputTokens,
        // OpenAI's wire format for prompt-cache hits.
        ...(reply.usage.cachedInputTokens
          ? { prompt_tokens_details: { cached_tokens: reply.usage.cachedInputTokens } }
          : {}),
      };
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: (error as Error).message } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function purposeOf(body: WireRequest): LlmPurpose {
  const tools = new Set(body.tools?.map((t) => t.function.name));
  // An agent's report is asked for at the end of its own conversation, with its tools but none allowed.
  if (body.tool_choice === 'none' && tools.has('generate_report')) return 'agent_report';
  if (tools.has('generate_plan')) return 'clarify';
  if (tools.has('research_agent')) return 'orchestrator';
  if (tools.has('web_search') || tools.has('open_url') || tools.has('internal_search')) return 'agent';
  // Every system prompt opens with the same house rules: the step's own instructions follow them.
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  const schema = body.response_format?.json_schema?.name;
  if (schema === 'task_plan') return 'plan';
  if (
    schema === 'citation_check' ||
    schema === 'citation_terms' ||
    schema === 'report_charts' ||
    schema === 'coverage_check' ||
    schema === 'report_question' ||
    schema === 'same_question'
  )
    return schema;
  if (system.includes('\nYou write the instructions for a deep-research model')) return 'task_instructions';
  if (system.includes('\nYou write research plans')) return 'plan';
  if (system.includes('\nYou are revising the report')) return 'report_merge';
  return 'final_report';
}

export function toChatMessage(m: WireMessage): ChatMessage {
  if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id ?? '', content: m.content ?? '' };
  if (m.role === 'assistant') {
    const toolCalls = m.tool_calls?.map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    }));
    return { role: 'assistant', content: m.content ?? '', ...(toolCalls?.length ? { toolCalls } : {}) };
  }
  return { role: m.role, content: m.content ?? '' };
}
