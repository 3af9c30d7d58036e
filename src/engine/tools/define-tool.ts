import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../../ports/llm.js';
import type { AgentActivity } from '../../ports/research.js';
import type { AgentResult } from '../agent/agent-result.js';
import type { SessionContext } from '../session-context.js';
import type { ToolOutcome } from './tool-result.js';

/** Who is offered a tool: the clarification step, the orchestrator or a research agent. */
export type Role = 'clarify' | 'orchestrator' | 'agent';

/** What a running tool call may use besides its arguments. */
export interface ToolEnv {
  ctx: SessionContext;
  role: Role;
  call: ToolCall;
  /** Names what the call starts: `cycle.n` for the orchestrator's calls. */
  id: string;
  /** The call's own deadline. */
  until: number;
  /** The agent's live activity line (a no-op for the orchestrator). */
  activity: (activity: AgentActivity) => void;
  /** Runs work within the session's limit on parallel research agents. */
  queue: <T>(work: () => Promise<T>) => Promise<T>;
  /** Runs a research agent on a task: given by the loop that may dispatch agents (the orchestrator's). */
  dispatch?: (agentId: string, task: string) => Promise<AgentResult>;
}

/**
 * One tool, whole: its name, what the model is told, its input as a zod schema
 * (the JSON Schema offered to the model is derived from it), who is offered it,
 * and what a call does. Tools without `execute` end or steer the loop that sees
 * them (`generate_report`, `generate_plan`).
 */
export interface Tool<I extends z.ZodType = z.ZodType> {
  name: string;
  /** One text, or one per role when roles read it differently. */
  description: string | Partial<Record<Role, string>>;
  input: I;
  isEnabled(ctx: SessionContext, role: Role): boolean;
  /** Calls that spend the session's tool-call budget. */
  budgeted?: boolean;
  execute?(args: z.output<I>, env: ToolEnv): Promise<ToolOutcome> | ToolOutcome;
}

export function defineTool<I extends z.ZodType>(tool: Tool<I>): Tool<I> {
  return tool;
}

const specs = new WeakMap<Tool, Map<Role, ToolSpec>>();

/** The definition offered to the model: description for the role, JSON Schema from the zod input (built once). */
export function toolSpec(tool: Tool, role: Role): ToolSpec {
  let byRole = specs.get(tool);
  if (!byRole) {
    byRole = new Map();
    specs.set(tool, byRole);
  }
  let spec = byRole.get(role);
  if (!spec) {
    const description = typeof tool.description === 'string' ? tool.description : tool.description[role];
    if (description === undefined) throw new Error(`tool ${tool.name} has no description for ${role}`);
    spec = { name: tool.name, description, parameters: jsonSchemaOf(tool) };
    byRole.set(role, spec);
  }
  return spec;
}

function jsonSchemaOf(tool: Tool): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { io: 'output' }) as Record<string, unknown>;
  return schema;
}

export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; message: string };

/** A malformed call becomes a message the model can act on, never an exception. */
export function parseArgs<I extends z.ZodType>(tool: Tool<I>, call: ToolCall): ParsedArgs<z.output<I>> {
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return {
      ok: false,
      message: `Error: the arguments for ${tool.name} were not valid JSON. ${usage(tool)}`,
    };
  }
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    return { ok: false, message: `Error: invalid arguments for ${tool.name} (${issues}). ${usage(tool)}` };
  }
  return { ok: true, value: parsed.data };
}

/** The repair messages parseArgs returns, as the loops recognise them. */
const INVALID_ARGS = /^Error: (the arguments for \S+ were not valid JSON|invalid arguments for )/;

/**
 * When every result of a turn is a repair message (the model sent nothing
 * our tools accept), what was wrong with the first, in a few words; else null.
 */
export function allInvalid(results: { content: string }[]): string | null {
  if (results.length === 0 || !results.every((r) => INVALID_ARGS.test(r.content))) return null;
  return results[0]!.content.replace(/^Error: /, '').split('. ')[0]!;
}

function usage(tool: Tool): string {
  const props = Object.keys((jsonSchemaOf(tool).properties as object | undefined) ?? {});
  return props.length
    ? `Call ${tool.name} again with a JSON object with ${props.map((p) => `"${p}"`).join(', ')}.`
    : `Call ${tool.name} again with {}.`;
}
