import OpenAI from 'openai';
import { ConfigError } from '../ports/errors.js';
import type { LlmRequest } from '../ports/llm.js';
import type { Logger } from '../ports/logger.js';
import type { ShapedRequest } from './wire-turn.js';

/** Said to the model when the server cannot be told to call a tool. */
export const TOOL_REMINDER =
  'Always answer by calling one or more of the tools offered; never answer with text alone.';

/** What this process learned about its model server, each logged once. */
export type Adaptation =
  | 'tool_choice_auto'
  | 'usage_estimated'
  | 'think_tags_removed'
  | 'json_schema_in_prompt'
  | 'reasoning_not_carried';

const EXPLAINED: Record<Adaptation, string> = {
  tool_choice_auto:
    'the model server rejects tool_choice "required": sending "auto" with a reminder in the system prompt from now on',
  usage_estimated: 'the model server reports no token usage: counting tokens with the tokenizer instead',
  think_tags_removed:
    'the model writes its reasoning in <think> tags: removing them from answers (a reasoning parser on the server avoids this)',
  json_schema_in_prompt:
    'the model server rejects structured output (response_format json_schema): relying on the schema in the prompt and validating the answer from now on',
  reasoning_not_carried:
    "the model server refuses sealed reasoning (include reasoning.encrypted_content): sending its reasoning models' turns without their earlier reasoning from now on",
};

/**
 * The differences between OpenAI-compatible servers this process has met.
 * One per adapter, so a process adapts once and every later call is sent the
 * way the server accepts.
 */
export function serverAdaptations(logger: Logger) {
  const learned = new Set<Adaptation>();
  return {
    has: (what: Adaptation) => learned.has(what),
    learn(what: Adaptation, model: string) {
      if (learned.has(what)) return;
      learned.add(what);
      logger.warn({ model, adaptation: what }, `model server adapted: ${EXPLAINED[what]}`);
    },
    /** The request as this server accepts it. */
    shape(request: LlmRequest): ShapedRequest {
      const jsonSchema = learned.has('json_schema_in_prompt') ? undefined : request.jsonSchema;
      const carryReasoning = request.model.reasoning && !learned.has('reasoning_not_carried');
      if (request.toolChoice !== 'required' || !learned.has('tool_choice_auto'))
        return { toolChoice: request.toolChoice, messages: request.messages, jsonSchema, carryReasoning };
      // Appended to the system prompt, which is the same on every call, so prompt caching still holds.
      let reminded = false;
      const messages = request.messages.map((m) => {
        if (reminded || m.role !== 'system') return m;
        reminded = true;
        return { ...m, content: `${m.content}\n\n${TOOL_REMINDER}` };
      });
      return {
        toolChoice: 'auto',
        messages: reminded ? messages : [{ role: 'system', content: TOOL_REMINDER }, ...messages],
        jsonSchema,
        carryReasoning,
      };
    },
  };
}

export type ServerAdaptations = ReturnType<typeof serverAdaptations>;

function rejection(error: unknown): string | undefined {
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  return error.message;
}

/** A 4xx about structured output itself: servers without `response_format: json_schema`. */
export function rejectsJsonSchema(error: unknown, request: LlmRequest): boolean {
  const message = rejection(error);
  return (
    request.jsonSchema !== undefined &&
    message !== undefined &&
    /response_format|json_schema|text\.format/i.test(message)
  );
}

/** A 4xx about sealed reasoning: a Responses server without `include: ["reasoning.encrypted_content"]`. */
export function rejectsSealedReasoning(error: unknown, request: LlmRequest): boolean {
  const message = rejection(error);
  return request.model.reasoning && message !== undefined && /encrypted_content|\binclude\b/i.test(message);
}

/** A 4xx about `tool_choice` itself: vLLM before 0.8.3, some proxies and gateways. */
export function rejectsRequiredToolChoice(error: unknown, request: LlmRequest): boolean {
  const message = rejection(error);
  return (
    request.toolChoice === 'required' &&
    message !== undefined &&
    /tool[_ ]choice/i.test(message) &&
    !message.includes('--enable-auto-tool-choice')
  );
}

/** A server or model that cannot call tools at all: no retry helps, the operator must change something. */
export function toolCallingUnavailable(error: unknown, model: string): ConfigError | undefined {
  const message = rejection(error);
  if (message === undefined) return undefined;
  if (message.includes('--enable-auto-tool-choice'))
    return new ConfigError(
      'llm_no_tool_calling',
      'The model server cannot call tools: start vLLM with --enable-auto-tool-choice and a --tool-call-parser for the model.',
      { cause: error },
    );
  // OpenAI's GPT-5.4 and later on Chat Completions (reached only when MODEL_API forces it).
  if (/function tools with reasoning_effort are not supported|please use \/v1\/responses/i.test(message))
    return new ConfigError(
      'llm_no_tool_calling',
      `Model "${model}" cannot call tools through Chat Completions (its server serves them on the Responses API only): set MODEL_API=auto (or responses), or choose a model that calls tools on Chat Completions.`,
      { cause: error },
    );
  if (/does not support tools/i.test(message))
    return new ConfigError(
      'llm_no_tool_calling',
      `Model "${model}" cannot call tools on this server: choose a model with tool calling in RESEARCH_MODEL.`,
      { cause: error },
    );
  return undefined;
}
