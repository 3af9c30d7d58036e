import { sleep } from '../../src/http/retry-delay.js';
import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';
import type { WebSearch } from '../../src/ports/web-search.js';

/**
 * A scripted model for benchmarks: every call takes exactly `latencyMs`; the
 * orchestrator dispatches `agents` tasks per cycle for `cycles` cycles, each
 * agent searches once and reports; the reply depends only on the request.
 */
export class BenchLlm implements Llm {
  calls = 0;
  constructor(private readonly options: { latencyMs: number; cycles: number; agents: number }) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.calls += 1;
    await sleep(this.options.latencyMs, request.signal);
    const reply = this.reply(request);
    if (reply.text) request.onTextDelta?.(reply.text);
    return {
      text: reply.text ?? '',
      toolCalls: (reply.tools ?? []).map(([name, args], i) => ({
        id: `c${i}`,
        name,
        arguments: JSON.stringify(args),
      })),
      usage: { inputTokens: 1000, outputTokens: 200 },
      finishReason: 'stop',
    };
  }

  private reply(request: LlmRequest): { text?: string; tools?: [string, unknown][] } {
    const turns = request.messages.filter((m) => m.role === 'assistant' && m.toolCalls?.length).length;
    switch (request.purpose) {
      case 'clarify':
        return { tools: [['generate_plan', {}]] };
      case 'plan':
        return { text: '1. Background\n2. Current state\n3. Outlook' };
      case 'orchestrator':
        return turns < this.options.cycles
          ? {
              tools: Array.from({ length: this.options.agents }, (_, a) => [
                'research_agent',
                { task: `Task ${turns + 1}.${a + 1}` },
              ]),
            }
          : { tools: [['generate_report', {}]] };
      case 'agent': {
        const task = request.messages.find((m) => m.role === 'user')!.content.match(/Task \d+\.\d+/)![0];
        return turns === 0
          ? { tools: [['web_search', { queries: [task] }]] }
          : { tools: [['generate_report', {}]] };
      }
      case 'agent_report': {
        const doc = JSON.parse(request.messages.find((m) => m.role === 'tool')!.content).results[0];
        return { text: `Finding from ${doc.title} [${doc.document}].` };
      }
      default: {
        const findings = request.messages
          .map((m) => m.content)
          .join('\n')
          .match(/Finding from [^\n]*?\[\d+\]\./g);
        return { text: `## Report\n\n${(findings ?? []).join('\n')}` };
      }
    }
  }
}

/** One result per query after a fixed delay. */
export function benchSearch(latencyMs: number): WebSearch {
  return {
    name: 'bench',
    async search(query, { signal }) {
      await sleep(latencyMs, signal);
      const slug = query.toLowerCase().replace(/\W+/g, '-');
      return [{ title: query, url: `https://example.com/${slug}`, snippet: `All about ${query}.` }];
    },
  };
}
