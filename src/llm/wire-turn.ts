import type OpenAI from 'openai';
import type { CarriedReasoning, LlmRequest, TokenUsage, ToolCall } from '../ports/llm.js';

/** One model turn as a wire API answered it, before the adapter fills in what the server left out. */
export interface WireAnswer {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string;
  /** Absent when the server sent none (LM Studio, older Ollama, some proxies). */
  usage?: TokenUsage;
  /** The answer came wrapped in <think> tags (reasoning models on servers without a reasoning parser). */
  thinkTags: boolean;
  reasoning?: CarriedReasoning[];
}

/** The request as this server accepts it (see server-adaptations). */
export type ShapedRequest = Pick<LlmRequest, 'toolChoice' | 'messages' | 'jsonSchema'> & {
  /** Ask for the model's reasoning sealed, and send back what earlier turns kept (Responses API). */
  carryReasoning: boolean;
};

/** Sends one turn on one wire API and reads its stream; `stillAlive` is called at every event. */
export type WireTurn = (
  client: OpenAI,
  request: LlmRequest,
  shaped: ShapedRequest,
  signal: AbortSignal,
  stillAlive: () => void,
  onText: ((delta: string) => void) | undefined,
) => Promise<WireAnswer>;
