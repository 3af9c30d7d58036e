import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLAN_ANSWER, PLAN_SCHEMA } from '../../src/backends/deep-research-api/task-graph.js';
import { strictJsonSchema } from '../../src/engine/strict-schema.js';

describe('the JSON Schema of a strict model answer', () => {
  it('is made from the zod schema that reads the answer: every property required, nothing else allowed, no refused keywords', () => {
    expect(PLAN_SCHEMA).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['questions', 'tasks'],
      properties: {
        questions: { type: 'array', items: { type: 'string' } },
        tasks: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'query', 'priority', 'depends_on'],
            properties: {
              id: { type: 'string', description: 'a short slug, e.g. "market-size"' },
              query: { type: 'string', description: 'the research question of this task' },
              priority: { type: 'integer', description: 'higher runs first' },
              depends_on: {
                type: 'array',
                items: { type: 'string' },
                description: 'ids of tasks whose findings it needs',
              },
            },
          },
        },
      },
    });
    // What the schema promises, the zod schema reads.
    expect(
      PLAN_ANSWER.safeParse({ questions: [], tasks: [{ id: 'a', query: 'q', priority: 1, depends_on: [] }] })
        .success,
    ).toBe(true);
    expect(strictJsonSchema(z.object({ verdict: z.enum(['supported', 'unsupported']) }))).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['verdict'],
      properties: { verdict: { type: 'string', enum: ['supported', 'unsupported'] } },
    });
  });

  it('refuses an optional field, which strict mode would refuse at the first call', () => {
    expect(() => strictJsonSchema(z.object({ answer: z.string(), note: z.string().optional() }))).toThrow(
      'strict structured output needs every property required (make note nullable)',
    );
  });
});
