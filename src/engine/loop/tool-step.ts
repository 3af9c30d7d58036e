import type { CarriedReasoning, ChatMessage, ToolCall } from '../../ports/llm.js';
import { callModel, interruption, type ModelCall, type SessionContext } from '../session-context.js';
import { noteFailure, textOnlyAnswer } from '../session-failures.js';
import { withSessionIds } from '../tools/session-call-ids.js';
import { errorText } from '../tools/tool-result.js';

/** What one model turn of a tool loop came to. */
export type ToolStep =
  /** `reasoning`: the model's, kept with its calls for its next turn (see callsTurn). */
  | { kind: 'calls'; calls: ToolCall[]; reasoning?: CarriedReasoning[] }
  /** It answered in text: `nudge` is what to add to the conversation before the next turn. */
  | { kind: 'text'; nudge: ChatMessage[] }
  | { kind: 'interrupted'; why: 'cancelled' | 'deadline' }
  | { kind: 'failed'; error: unknown };

/**
 * The step both tool loops (the orchestrator's and each agent's) take: call
 * the model, tag its calls with session-unique ids, and sort out what came
 * back. An answer without a tool call and a failed call are recorded against
 * the model (see nothingResearched); a cancel or the deadline is not a failure.
 */
export async function toolStep(
  ctx: SessionContext,
  call: ModelCall,
  idPrefix: string,
  /** What the model should do instead of writing text, for the nudge. */
  instead: string,
): Promise<ToolStep> {
  try {
    const response = await callModel(ctx, call);
    const calls = withSessionIds(response.toolCalls, idPrefix);
    const reasoning = carried(response.reasoning);
    if (calls.length > 0) return { kind: 'calls', calls, ...reasoning };
    noteFailure(ctx.state, 'model', textOnlyAnswer(response.text));
    return {
      kind: 'text',
      nudge: [
        { role: 'assistant', content: response.text, ...reasoning },
        { role: 'user', content: `Respond only with tool calls: ${instead}.` },
      ],
    };
  } catch (error) {
    const why = interruption(ctx, call.until);
    if (why) return { kind: 'interrupted', why };
    noteFailure(ctx.state, 'model', errorText(error));
    return { kind: 'failed', error };
  }
}

/** The assistant message a step of calls leaves in the conversation: its calls and the model's reasoning. */
export function callsTurn(calls: ToolCall[], step: ToolStep | undefined): ChatMessage {
  const reasoning = step?.kind === 'calls' ? carried(step.reasoning) : {};
  return { role: 'assistant', content: '', toolCalls: calls, ...reasoning };
}

function carried(reasoning: CarriedReasoning[] | undefined): { reasoning?: CarriedReasoning[] } {
  return reasoning?.length ? { reasoning } : {};
}
