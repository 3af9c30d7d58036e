import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../ports/errors.js';
import type { TokenUsage, ToolCall } from '../ports/llm.js';
import { cachedTokensOf } from './cached-tokens.js';
import { thinkFilter } from './think-filter.js';
import type { WireAnswer } from './wire-turn.js';

/**
 * Reads a Chat Completions stream as the servers we support send it:
 * OpenAI and Azure (filter-result chunks with no choices), vLLM (tool-call
 * name and arguments in separate deltas, `reasoning_content`), Ollama (whole
 * tool calls in one chunk, older versions without `index`), LM Studio (no
 * usage), OpenRouter (SSE comments, `reasoning`, `finish_reason: "error"`;
 * its `error` chunks the SDK throws as an APIError without a status).
 * Reasoning fields are never part of the answer.
 */
export async function readCompletionStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText: ((delta: string) => void) | undefined,
  stillAlive: () => void,
): Promise<WireAnswer> {
  let text = '';
  let finishReason = 'unknown';
  let usage: TokenUsage | undefined;
  const calls: ToolCall[] = [];
  const byIndex = new Map<number, ToolCall>();
  const think = thinkFilter();
  const emit = (visible: string) => {
    if (!visible) return;
    text += visible;
    onText?.(visible);
  };
  for await (const chunk of stream) {
    stillAlive();
    if (chunk.usage) {
      usage = {
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens,
        cachedInputTokens: cachedTokensOf(chunk.usage),
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta?.content) emit(think.push(delta.content));
    for (const part of delta?.tool_calls ?? []) {
      // Without an index, a part carrying a new id starts a new call; anything else continues the last one.
      const index = typeof part.index === 'number' ? part.index : undefined;
      let call = index === undefined ? calls.at(-1) : byIndex.get(index);
      if (!call || (index === undefined && part.id && call.id && part.id !== call.id)) {
        call = { id: '', name: '', arguments: '' };
        calls.push(call);
        if (index !== undefined) byIndex.set(index, call);
      }
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
  }
  emit(think.end());
  if (finishReason === 'content_filter')
    throw new ProviderError(
      'llm_content_filter',
      "The model server's content filter stopped the answer: rephrase the question or relax the filter on the deployment.",
      false,
    );
  if (finishReason === 'error')
    throw new ProviderError('llm_stream_error', 'The model server ended its answer with an error.', true);
  // A stream that ends without saying why it ended was cut short (or was not a completion at all).
  if (finishReason === 'unknown' && !text && calls.length === 0)
    throw new ProviderError('llm_bad_response', 'The model server sent an empty or unreadable answer.', true);
  const order = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const toolCalls = (byIndex.size > 0 ? order : calls).map((call, i) => ({
    ...call,
    id: call.id || `call_${i}`,
  }));
  return { text, toolCalls, finishReason, usage, thinkTags: think.seen() };
}
