import type { CostFromSettings } from '../../engine/estimate.js';
import { addModelUsage, emptyUsage } from '../../ports/usage.js';

/**
 * Without history, what a task-graph research costs: 2 tasks to the most
 * allowed, each a hosted run of about 100k–500k input and 10k–40k output
 * tokens with 10–40 web searches (what deep-research runs are reported to
 * use), at the hosted model's and search's prices; planning, instructions
 * and the report on our own models add little. Null without prices.
 */
export function taskGraphCost(model: string, maxTasks: number): CostFromSettings {
  return (_settings, price) => {
    const cost = (tasks: number, input: number, output: number, searches: number) => {
      const usage = emptyUsage();
      for (let i = 0; i < tasks; i++)
        addModelUsage(usage, 'deep_research', model, { inputTokens: input, outputTokens: output });
      usage.hostedSearches = tasks * searches;
      return price(usage);
    };
    const low = cost(2, 100_000, 10_000, 10);
    const high = cost(maxTasks, 500_000, 40_000, 40);
    return low === null || high === null ? null : [low, high];
  };
}
