import { z } from 'zod';

/** Keywords strict structured output refuses, and zod writes anyway (string lengths, integer bounds). */
const REFUSED = ['$schema', 'minLength', 'maxLength'];

/**
 * The JSON Schema a model's strict structured output is held to, made from
 * the zod schema that reads the answer, so the two cannot drift apart: every
 * property required and nothing else allowed (zod's output schema of an
 * object), without the keywords strict mode refuses.
 */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return prune(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' })) as Record<string, unknown>;
}

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (!node || typeof node !== 'object') return node;
  const { properties, required = [] } = node as { properties?: object; required?: string[] };
  const optional = Object.keys(properties ?? {}).filter((k) => !required.includes(k));
  // A programming error, caught by the first test that builds the schema: strict mode refuses optional fields.
  if (optional.length)
    throw new Error(
      `strict structured output needs every property required (make ${optional.join(', ')} nullable)`,
    );
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (REFUSED.includes(key)) continue;
    // z.number().int() bounds itself to the safe integers: no bound a model needs to be told.
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    kept[key] = prune(value);
  }
  return kept;
}
