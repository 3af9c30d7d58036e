import type { Llm, LlmRequest, LlmResponse } from '../../src/ports/llm.js';

/**
 * A model for the deep-research backend's own calls: the plan answers come
 * from the test (in order, the last repeating), a task's instructions repeat
 * the request they were written from (so a test can see what a task was
 * given), and the report gathers every cited finding (`Finding about … [n].`) of
 * the findings or the draft it is given. Any other call fails the test.
 */
export class TaskGraphLlm implements Llm {
  calls: LlmRequest[] = [];
  constructor(private readonly plans: unknown[]) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.calls.push(request);
    const reply = (text: string): LlmResponse => ({
      text,
      toolCalls: [],
      usage: { inputTokens: 50, outputTokens: 10 },
      finishReason: 'stop',
    });
    const user = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    switch (request.purpose) {
      case 'plan': {
        const planned = this.calls.filter((c) => c.purpose === 'plan').length - 1;
        const answer = this.plans[Math.min(planned, this.plans.length - 1)];
        return reply(typeof answer === 'string' ? answer : JSON.stringify(answer));
      }
      case 'task_instructions':
        return reply(`Research this task thoroughly and cite every claim.\n\n${user.join('\n\n')}`);
      case 'final_report':
      case 'report_merge': {
        const cited = user.join('\n').match(/Finding about [^\n]*?\[\d+\]\./g) ?? [];
        return reply(`## Report\n\n${[...new Set(cited.map((s) => s.trim()))].join('\n\n')}`);
      }
      default:
        throw new Error(`TaskGraphLlm: unexpected ${request.purpose} call`);
    }
  }
}

/** A plan answer with these tasks ([id, priority, depends_on]). */
export function graph(tasks: [string, number, string[]?][]): unknown {
  return {
    questions: [],
    tasks: tasks.map(([id, priority, depends_on = []]) => ({
      id,
      query: `What about ${id}?`,
      priority,
      depends_on,
    })),
  };
}
