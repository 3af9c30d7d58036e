import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../../ports/llm.js';
import { normalizeQueries } from './normalize-queries.js';
import { TOOL } from './tool-names.js';

const noArgs = z.object({}).passthrough();

/** Argument schemas: every tool call is parsed with these before anything runs. */
export const toolArgs = {
  [TOOL.generatePlan]: noArgs,
  [TOOL.generateReport]: noArgs,
  [TOOL.researchAgent]: z.object({ task: z.string().trim().min(1, 'task must be a non-empty string') }),
  [TOOL.think]: z.object({ reasoning: z.string() }),
  [TOOL.webSearch]: z.object({
    queries: z
      .unknown()
      .transform(normalizeQueries)
      .pipe(z.array(z.string()).min(1, 'give at least one query')),
  }),
  [TOOL.internalSearch]: z.object({
    queries: z
      .unknown()
      .transform(normalizeQueries)
      .pipe(z.array(z.string()).min(1, 'give at least one query')),
  }),
  [TOOL.openUrl]: z.object({
    urls: z.unknown().transform(normalizeQueries).pipe(z.array(z.string()).min(1, 'give at least one URL')),
  }),
};

type ToolName = keyof typeof toolArgs;
export type ToolArgs<N extends ToolName> = z.output<(typeof toolArgs)[N]>;

export type ParsedArgs<N extends ToolName> =
  | { ok: true; value: ToolArgs<N> }
  | { ok: false; message: string };

/** A malformed call becomes a message the model can act on, never an exception. */
export function parseToolArgs<N extends ToolName>(name: N, call: ToolCall): ParsedArgs<N> {
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return { ok: false, message: `Error: the arguments for ${name} were not valid JSON. ${usage(name)}` };
  }
  const parsed = toolArgs[name].safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    return { ok: false, message: `Error: invalid arguments for ${name} (${issues}). ${usage(name)}` };
  }
  return { ok: true, value: parsed.data as ToolArgs<N> };
}

function usage(name: ToolName): string {
  const spec = Object.values(SPECS).find((s) => s.name === name);
  const props = Object.keys((spec?.parameters.properties as object | undefined) ?? {});
  return props.length
    ? `Call ${name} again with a JSON object with ${props.map((p) => `"${p}"`).join(', ')}.`
    : `Call ${name} again with {}.`;
}

const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

const SPECS = {
  generatePlan: {
    name: TOOL.generatePlan,
    description: "No clarification is needed: generate a research plan for the user's query.",
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  researchAgent: {
    name: TOOL.researchAgent,
    description:
      'Dispatch a research agent to investigate one topic. Several calls in one turn run in parallel. ' +
      'The agent sees only the task text, so it must carry all the context the agent needs.',
    parameters: {
      type: 'object',
      properties: {
        task: {
          type: 'string',
          description:
            '1-2 descriptive sentences giving the direction of investigation and all needed context.',
        },
      },
      required: ['task'],
      additionalProperties: false,
    },
  },
  think: {
    name: TOOL.think,
    description:
      'Reason before the next step: what was found, what is missing, what to do next. Write paragraphs, not lists.',
    parameters: {
      type: 'object',
      properties: { reasoning: { type: 'string', description: 'Your reasoning.' } },
      required: ['reasoning'],
      additionalProperties: false,
    },
  },
  orchestratorReport: {
    name: TOOL.generateReport,
    description:
      'Generate the final research report from all findings. Call it once the plan is covered and research is complete.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  agentReport: {
    name: TOOL.generateReport,
    description: 'Write your report on the task from what you found. Call it when your research is complete.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  webSearch: {
    name: TOOL.webSearch,
    description:
      'Search the web. Give up to 3 short, distinct queries; they run in parallel. Results are numbered documents.',
    parameters: {
      type: 'object',
      properties: { queries: stringList('Search queries, at most 3.') },
      required: ['queries'],
      additionalProperties: false,
    },
  },
  openUrl: {
    name: TOOL.openUrl,
    description:
      'Read the full text of web pages, for example promising search results. Up to 10 URLs per call.',
    parameters: {
      type: 'object',
      properties: { urls: stringList('Absolute http(s) URLs to read.') },
      required: ['urls'],
      additionalProperties: false,
    },
  },
  internalSearch: {
    name: TOOL.internalSearch,
    description:
      "Search the team's own documents (knowledge base). Give up to 3 queries; results are numbered documents.",
    parameters: {
      type: 'object',
      properties: { queries: stringList('Search queries, at most 3.') },
      required: ['queries'],
      additionalProperties: false,
    },
  },
} satisfies Record<string, ToolSpec>;

export const TOOL_SPECS: Record<keyof typeof SPECS, ToolSpec> = SPECS;
