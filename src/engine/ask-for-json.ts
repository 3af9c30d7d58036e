import type { z } from 'zod';
import type { LlmPurpose } from '../ports/llm.js';
import { readJsonAnswer } from './json-answer.js';
import { callModel, type SessionContext } from './session-context.js';
import { strictJsonSchema } from './strict-schema.js';

/**
 * One metered call of the agents' model for a strict JSON answer: the
 * prompt (whose only variable is the answer's schema) and one user message.
 * Throws when the model fails or its answer cannot be read (`what`: what it is, for the message).
 */
export async function askForJson<T>(
  ctx: SessionContext,
  ask: {
    /** A prompt whose one variable is the answer's schema. */
    prompt: 'citation-terms' | 'report-charts';
    purpose: LlmPurpose;
    answer: z.ZodType<T>;
    user: string;
    until: number;
    what: string;
  },
): Promise<T> {
  const schema = strictJsonSchema(ask.answer);
  const system = ctx.deps.prompts.render(ask.prompt, { answer_schema: JSON.stringify(schema) });
  const response = await callModel(ctx, {
    purpose: ask.purpose,
    model: ctx.settings.models.agent,
    messages: [
      { role: 'system', content: system.text },
      { role: 'user', content: ask.user },
    ],
    maxTokens: system.settings.maxTokens,
    jsonSchema: { name: ask.purpose, schema },
    until: ask.until,
  });
  const read = readJsonAnswer(response.text, ask.answer);
  if ('problem' in read) throw new Error(`${ask.what} could not be read: ${read.problem}`);
  return read.value;
}
