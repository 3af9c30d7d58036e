import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Llm, LlmPurpose, ToolSpec } from '../../src/ports/llm.js';
import { purposeOf, toChatMessage, type WireMessage, type WireRequest } from './fake-openai-server.js';
import { readBody } from './read-body.js';

export interface FakeModelServerOptions {
  /** Answer calls of this purpose with a 200 whose body is truncated JSON (while it returns true). */
  garbage?: (purpose: LlmPurpose) => boolean;
  /**
   * Behave as OpenAI does today: serve the Responses API (stateless, reasoning
   * sealed in `encrypted_content`), and refuse function tools on Chat
   * Completions for gpt-5.4 and later with OpenAI's HTTP 400.
   */
  openai?: boolean;
}

/** One call the fake served. */
export interface ServedCall {
  api: 'responses' | 'chat-completions';
  purpose: LlmPurpose;
  model: string;
  /** Refused as OpenAI refuses it (Chat Completions, tools, a current model). */
  refused: boolean;
  /** Responses API: earlier turns in the input, and how many came without the reasoning the fake sealed for them. */
  earlierTurns?: number;
  turnsWithoutReasoning?: number;
}

/** gpt-5.4 and later, and the GPT-6 generation: tools only on the Responses API. */
export function refusesToolsOnChat(model: string): boolean {
  const m = /^gpt-(\d+)(?:\.(\d+))?/.exec(model);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2] ?? 0)];
  return major > 5 || (major === 5 && minor >= 4);
}

/** OpenAI's answer, word for word (openai/openai-openapi #541). */
export function chatToolsRefusal(model: string) {
  return {
    error: {
      message: `Function tools with reasoning_effort are not supported for ${model} in /v1/chat/completions. Please use /v1/responses instead.`,
      type: 'invalid_request_error',
      param: 'reasoning_effort',
      code: null,
    },
  };
}

interface ResponsesBody {
  model: string;
  input: Record<string, unknown>[];
  tools?: { name: string; description: string; parameters: Record<string, unknown> }[];
  tool_choice?: string;
  include?: string[];
  store?: boolean;
  text?: { format?: { type: string; name?: string } };
}

/**
 * `POST /v1/responses` answered with the fake model, in the Responses wire
 * format: text deltas, then `response.completed` with every output item. A
 * reasoning model asked for `reasoning.encrypted_content` gets a sealed
 * reasoning item per turn; each later request is checked for carrying, before
 * each earlier turn, the seal the fake gave that turn.
 */
export function responsesRoute(llm: Llm, calls: ServedCall[]) {
  const sealed = new Set<string>();
  let next = 0;
  return async (req: IncomingMessage, res: ServerResponse): Promise<WireRequest | undefined> => {
    const body = JSON.parse(await readBody(req)) as ResponsesBody;
    const chat = chatShaped(body);
    const purpose = purposeOf(chat);
    const { earlierTurns, turnsWithoutReasoning } = carried(body.input, sealed);
    calls.push({
      api: 'responses',
      purpose,
      model: body.model,
      refused: false,
      earlierTurns,
      turnsWithoutReasoning,
    });
    try {
      const reply = await llm.complete({
        model: { name: body.model, reasoning: true },
        purpose,
        messages: chat.messages.map(toChatMessage),
        ...(chat.response_format?.json_schema
          ? { jsonSchema: { name: chat.response_format.json_schema.name, schema: {} } }
          : {}),
        tools: chat.tools?.map((t): ToolSpec => ({ ...t.function })),
        timeoutMs: 60_000,
      });
      const output: Record<string, unknown>[] = [];
      if (body.include?.includes('reasoning.encrypted_content')) {
        const seal = `sealed-${++next}`;
        sealed.add(seal);
        output.push({ type: 'reasoning', id: `rs_${next}`, summary: [], encrypted_content: seal });
      }
      if (reply.text)
        output.push({
          type: 'message',
          id: `msg_${next}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: reply.text, annotations: [] }],
        });
      for (const call of reply.toolCalls)
        output.push({
          type: 'function_call',
          id: `fc_${call.id}`,
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
          status: 'completed',
        });
      const event = (type: string, data: object) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: 0, ...data })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (reply.text) res.write(event('response.output_text.delta', { output_index: 0, delta: reply.text }));
      const usage = {
        input_tokens: reply.usage.inputTokens,
        input_tokens_details: { cached_tokens: reply.usage.cachedInputTokens ?? 0 },
        output_tokens: reply.usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: reply.usage.inputTokens + reply.usage.outputTokens,
      };
      res.end(
        event('response.completed', {
          response: { id: `resp_${next}`, object: 'response', status: 'completed', output, usage },
        }),
      );
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: (error as Error).message } }));
    }
    return chat;
  };
}

/** The request in Chat Completions' shape, so the fake model and purposeOf read it the same way. */
function chatShaped(body: ResponsesBody): WireRequest {
  const messages: WireMessage[] = [];
  for (const item of body.input) {
    if (item.type === 'reasoning') continue;
    if (item.type === 'function_call') {
      const call = {
        id: String(item.call_id),
        function: { name: String(item.name), arguments: String(item.arguments) },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && last.tool_calls) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_output')
      messages.push({ role: 'tool', tool_call_id: String(item.call_id), content: String(item.output) });
    else messages.push({ role: item.role as WireMessage['role'], content: String(item.content) });
  }
  const format = body.text?.format;
  return {
    model: body.model,
    messages,
    ...(body.tools ? { tools: body.tools.map((t) => ({ function: t })) } : {}),
    ...(body.tool_choice ? { tool_choice: body.tool_choice } : {}),
    ...(format?.type === 'json_schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: format.name ?? '' } } }
      : {}),
  };
}

/** Each earlier turn (a run of calls, or an assistant message) and whether a seal of ours came right before it. */
function carried(input: Record<string, unknown>[], sealed: Set<string>) {
  let earlierTurns = 0;
  let turnsWithoutReasoning = 0;
  input.forEach((item, i) => {
    const turn = item.type === 'function_call' || item.role === 'assistant';
    const previous = input[i - 1];
    const continues =
      item.type === 'function_call' && (previous?.type === 'function_call' || previous?.role === 'assistant');
    if (!turn || continues) return;
    earlierTurns += 1;
    if (!(previous?.type === 'reasoning' && sealed.has(String(previous.encrypted_content))))
      turnsWithoutReasoning += 1;
  });
  return { earlierTurns, turnsWithoutReasoning };
}
