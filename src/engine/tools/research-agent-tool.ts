import { z } from 'zod';
import type { AgentResult } from '../agent/agent-result.js';
import { defineTool } from './define-tool.js';
import { errorText } from './tool-result.js';

/**
 * The orchestrator's one research tool: a research agent on a task, run within
 * the session's parallel-agent limit; its report (or why it failed) is the result.
 */
export const researchAgentTool = defineTool({
  name: 'research_agent',
  description:
    'Dispatch a research agent to investigate one topic. Several calls in one turn run in parallel. ' +
    'The agent sees only the task text, so it must carry all the context the agent needs.',
  input: z.object({
    task: z
      .string()
      .trim()
      .min(1, 'task must be a non-empty string')
      .describe('1-2 descriptive sentences giving the direction of investigation and all needed context.'),
  }),
  isEnabled: (_ctx, role) => role === 'orchestrator',
  execute: ({ task }, { ctx, call, id: agentId, queue, dispatch }) =>
    queue(async () => {
      const { deps, state } = ctx;
      if (ctx.cancel.aborted) return { content: 'Research agent cancelled.', shown: [] };
      if (!dispatch) return { content: 'Error: research agents cannot be dispatched here.', shown: [] };
      deps.emit({ type: 'agent_started', agentId, task });
      let result: AgentResult;
      try {
        result = await dispatch(agentId, task);
      } catch (error) {
        // An agent's bug or a thrown provider error must not take the session down with it.
        ctx.log.error({ agentId, err: error }, 'research agent crashed');
        result = { ok: false, reason: errorText(error) };
      }
      if (result.ok) {
        state.agents.push({
          id: agentId,
          toolCallId: call.id,
          task,
          status: 'done',
          sources: result.sources,
        });
        deps.emit({ type: 'agent_done', agentId, sources: result.sources });
        return { content: result.report, shown: [] };
      }
      state.agents.push({
        id: agentId,
        toolCallId: call.id,
        task,
        status: 'failed',
        sources: 0,
        error: result.reason,
      });
      if (!result.cancelled) deps.emit({ type: 'agent_failed', agentId, reason: result.reason });
      return {
        content: `Research agent failed: ${result.reason}. Try a different approach or continue without this result.`,
        shown: [],
      };
    }),
});
