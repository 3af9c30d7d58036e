import type { ExternalTool } from '../../ports/external-tools.js';
import type { ToolCall, ToolSpec } from '../../ports/llm.js';
import { toolCallsSpent } from '../loop/stop-rules.js';
import type { SessionContext } from '../session-context.js';
import { parseArgs, type Role, type Tool, type ToolEnv, toolSpec } from './define-tool.js';
import { externalTool } from './external-tool.js';
import { generatePlanTool } from './generate-plan-tool.js';
import { generateReportTool } from './generate-report-tool.js';
import { internalSearchTool } from './internal-search-tool.js';
import { openUrlTool } from './open-url-tool.js';
import { researchAgentTool } from './research-agent-tool.js';
import { thinkTool } from './think-tool.js';
import { threadFilesTool } from './thread-files-tool.js';
import { errorText, type ToolOutcome } from './tool-result.js';
import { webSearchTool } from './web-search-tool.js';

/** Every tool, in the order they are offered (a fixed order keeps requests byte-identical for prompt caching). */
const ALL_TOOLS = [
  researchAgentTool,
  webSearchTool,
  openUrlTool,
  internalSearchTool,
  threadFilesTool,
  thinkTool,
  generateReportTool,
  generatePlanTool,
] as Tool[];

/** The tools a role is offered in this session. */
export function toolsFor(ctx: SessionContext, role: Role): Tool[] {
  return [...ALL_TOOLS, ...ctx.externalTools.map(asTool)].filter((tool) => tool.isEnabled(ctx, role));
}

/** One tool object per external tool, so its spec is built once. */
const external = new WeakMap<ExternalTool, Tool>();
function asTool(spec: ExternalTool): Tool {
  let tool = external.get(spec);
  if (!tool) {
    tool = externalTool(spec);
    external.set(spec, tool);
  }
  return tool;
}

export function specsFor(tools: Tool[], role: Role): ToolSpec[] {
  return tools.map((tool) => toolSpec(tool, role));
}

/**
 * Runs one call against the tools on offer. Everything the model can get wrong
 * (a tool it was not offered, a spent budget, unusable arguments) comes back as
 * a result it can act on, never an exception.
 */
export async function runToolCall(
  call: ToolCall,
  offered: Tool[],
  env: Omit<ToolEnv, 'call'>,
): Promise<ToolOutcome> {
  const { ctx } = env;
  const tool = offered.find((t) => t.name === call.name && t.execute);
  if (!tool?.execute) {
    const names = offered.map((t) => t.name).join(', ');
    return {
      content: `Error: there is no tool named "${call.name}" here. Available tools: ${names}.`,
      shown: [],
    };
  }
  if (tool.budgeted && toolCallsSpent(ctx)) {
    return {
      content: 'Error: the tool-call budget for this research is used up; call generate_report.',
      shown: [],
    };
  }
  const args = parseArgs(tool, call);
  if (!args.ok) return { content: args.message, shown: [] };
  if (tool.budgeted) ctx.state.toolCalls += 1;
  try {
    return await tool.execute(args.value, { ...env, call });
  } catch (error) {
    // A tool that throws costs the model one result, never the session.
    ctx.log.error({ err: error, tool: tool.name }, 'a tool failed');
    return {
      content: `Error: ${tool.name} failed (${errorText(error)}). Try again differently, or go on without it.`,
      shown: [],
    };
  }
}
