import type {
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseStreamEvent,
  Response as WireResponse,
} from 'openai/resources/responses/responses';
import { ProviderError } from '../ports/errors.js';
import type { CarriedReasoning, ChatMessage, LlmRequest, TokenUsage, ToolCall } from '../ports/llm.js';
import type { ShapedRequest, WireAnswer, WireTurn } from './wire-turn.js';

/**
 * One model turn on the Responses API, streamed. Stateless (`store: false`):
 * a reasoning model's reasoning comes back sealed
 * (`include: ["reasoning.encrypted_content"]`) and is sent back with the
 * turn it belongs to, so nothing of a session is kept on the server, a turn
 * never depends on a response the server may have dropped, and a session
 * resumed from its checkpoint in another process (or after days) continues
 * with the same reasoning; `previous_response_id` would give neither. The
 * whole history is sent every turn, as on Chat Completions, so the stable
 * prefix (system prompt, earlier turns) stays cacheable.
 */
export const responsesTurn: WireTurn = async (client, request, shaped, signal, stillAlive, onText) => {
  const params = toParams(request, shaped);
  const stream = await client.responses.create(params, { signal });
  return readResponsesStream(stream as AsyncIterable<ResponseStreamEvent>, onText, stillAlive);
};

function toParams(request: LlmRequest, shaped: ShapedRequest): ResponseCreateParamsStreaming {
  const params: ResponseCreateParamsStreaming = {
    model: request.model.name,
    input: shaped.messages.flatMap((m) => toItems(m, shaped.carryReasoning)),
    stream: true,
    store: false,
  };
  if (request.tools?.length) {
    // Not strict: the tools' schemas have optional fields, which strict mode forbids; the engine validates arguments.
    params.tools = request.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
    params.tool_choice = shaped.toolChoice ?? 'auto';
  }
  if (request.maxTokens) params.max_output_tokens = Math.max(16, request.maxTokens);
  if (shaped.carryReasoning) params.include = ['reasoning.encrypted_content'];
  if (request.model.reasoning && request.reasoningEffort)
    params.reasoning = { effort: request.reasoningEffort };
  if (shaped.jsonSchema)
    params.text = {
      format: {
        type: 'json_schema',
        name: shaped.jsonSchema.name,
        schema: shaped.jsonSchema.schema,
        strict: true,
      },
    };
  return params;
}

/** The port's message as input items: a turn's reasoning first, then its text and its calls. */
function toItems(message: ChatMessage, carryReasoning: boolean): ResponseInputItem[] {
  switch (message.role) {
    case 'assistant': {
      // A reasoning item must be followed by what it led to: a turn that said nothing carries none.
      const said = Boolean(message.content) || Boolean(message.toolCalls?.length);
      return [
        ...(carryReasoning && said ? (message.reasoning ?? []) : []).map(
          (r): ResponseInputItem => ({
            type: 'reasoning',
            id: r.id,
            summary: [],
            encrypted_content: r.encrypted,
          }),
        ),
        ...(message.content ? [{ role: 'assistant' as const, content: message.content }] : []),
        ...(message.toolCalls ?? []).map(
          (c): ResponseInputItem => ({
            type: 'function_call',
            call_id: c.id,
            name: c.name,
            arguments: c.arguments,
          }),
        ),
      ];
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
    default:
      return [{ role: message.role, content: message.content }];
  }
}

/**
 * Reads a Responses stream: text deltas reach the caller as they come; the
 * answer itself (calls, reasoning, usage) is taken from the final response
 * the stream ends with, which carries every output item whole.
 */
export async function readResponsesStream(
  stream: AsyncIterable<ResponseStreamEvent>,
  onText: ((delta: string) => void) | undefined,
  stillAlive: () => void,
): Promise<WireAnswer> {
  let streamed = '';
  let final: WireResponse | undefined;
  for await (const event of stream) {
    stillAlive();
    switch (event.type) {
      case 'response.output_text.delta':
        streamed += event.delta;
        onText?.(event.delta);
        break;
      case 'response.completed':
      case 'response.incomplete':
        final = event.response;
        break;
      case 'response.failed':
        throw failed(event.response);
      case 'error':
        throw new ProviderError(
          'llm_stream_error',
          `The model server failed mid-answer: ${String(event.message).slice(0, 300)}`,
          true,
        );
    }
  }
  if (!final)
    throw new ProviderError('llm_bad_response', 'The model server sent an empty or unreadable answer.', true);
  return answerOf(final, streamed);
}

function answerOf(response: WireResponse, streamed: string): WireAnswer {
  const reason = response.incomplete_details?.reason;
  if (reason === 'content_filter')
    throw new ProviderError(
      'llm_content_filter',
      "The model server's content filter stopped the answer: rephrase the question or relax the filter on the deployment.",
      false,
    );
  let text = '';
  const toolCalls: ToolCall[] = [];
  const reasoning: CarriedReasoning[] = [];
  for (const item of response.output ?? []) {
    if (item.type === 'message')
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    if (item.type === 'function_call')
      toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    if (item.type === 'reasoning' && item.encrypted_content)
      reasoning.push({ id: item.id, encrypted: item.encrypted_content });
  }
  const usage = usageOf(response);
  return {
    // Some servers send the text only as deltas.
    text: text || streamed,
    toolCalls,
    finishReason: reason === 'max_output_tokens' ? 'length' : toolCalls.length ? 'tool_calls' : 'stop',
    thinkTags: false,
    ...(reasoning.length ? { reasoning } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** A response's usage as the port counts it: input, of it cached, output, of it reasoning. */
export function usageOf(response: Pick<WireResponse, 'usage'>): Required<TokenUsage> | undefined {
  const usage = response.usage;
  return usage
    ? {
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
        reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
      }
    : undefined;
}

/** A response that failed on the server: retried when the server says it was its own or a passing fault. */
function failed(response: WireResponse): ProviderError {
  const code = response.error?.code ?? 'server_error';
  const message = response.error?.message ?? 'no reason given';
  const passing = code === 'server_error' || code === 'rate_limit_exceeded';
  return new ProviderError(
    passing ? 'llm_stream_error' : 'llm_http_error',
    `The model server could not answer (${code}): ${message.slice(0, 300)}`,
    passing,
  );
}
