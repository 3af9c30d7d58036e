import type { z } from 'zod';

/**
 * A model's structured answer read against its schema: the value, or the
 * problem in words (for a repair request or a log line). Code fences around
 * the JSON are tolerated, as servers without structured output add them.
 */
export function readJsonAnswer<T>(text: string, schema: z.ZodType<T>): { value: T } | { problem: string } {
  const json = text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { problem: 'it is not JSON' };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { problem: `it does not match the schema (${issue.path.join('.') || 'answer'}: ${issue.message})` };
}
