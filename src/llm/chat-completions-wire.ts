import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, LlmRequest } from '../ports/llm.js';
import { readCompletionStream } from './read-completion-stream.js';
import type { ShapedRequest, WireTurn } from './wire-turn.js';

/**
 * One model turn on Chat Completions, which every OpenAI-compatible server
 * speaks. A reasoning model's carried reasoning has no place on this wire and
 * is left out (the turns themselves are all sent).
 */
export const chatCompletionsTurn: WireTurn = async (client, request, shaped, signal, stillAlive, onText) => {
  const stream = await client.chat.completions.create(toParams(request, shaped), { signal });
  return readCompletionStream(stream as AsyncIterable<ChatCompletionChunk>, onText, stillAlive);
};

function toParams(request: LlmRequest, shaped: ShapedRequest): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model.name,
    messages: shaped.messages.map(toWire),
    stream: true,
    stream_options: { include_usage: true },
  };
  // Some servers reject an empty tools list, so none is sent rather than [].
  if (request.tools?.length) {
    params.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    params.tool_choice = shaped.toolChoice ?? 'auto';
  }
  if (request.maxTokens) {
    if (request.model.reasoning) params.max_completion_tokens = request.maxTokens;
    else params.max_tokens = request.maxTokens;
  }
  if (request.model.reasoning && request.reasoningEffort) params.reasoning_effort = request.reasoningEffort;
  if (shaped.jsonSchema)
    params.response_format = { type: 'json_schema', json_schema: { ...shaped.jsonSchema, strict: true } };
  return params;
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content || null,
            tool_calls: message.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default:
      return message;
  }
}
