import type { ToolCall } from '../../ports/llm.js';

/**
 * Gives a turn's tool calls ids unique within the conversation. Providers'
 * ids cannot be trusted for that: some OpenAI-compatible servers reuse
 * `call_0` every turn, and a resumed session talks to a fresh connection.
 */
export function withSessionIds(calls: ToolCall[], prefix: string): ToolCall[] {
  return calls.map((call, i) => ({ ...call, id: `${prefix}_${i + 1}` }));
}
