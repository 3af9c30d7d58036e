import { describe, expect, it } from 'vitest';
import {
  TASK_WORK,
  type TaskGraphState,
  taskGraph,
} from '../../../src/backends/deep-research-api/task-state.js';
import { newSession } from '../../../src/engine/run-session.js';
import type { SessionState } from '../../../src/engine/session-state.js';

describe('the task graph’s own state', () => {
  it('moves the tasks of a checkpoint written before backends kept their own state into its backend state', () => {
    const legacy = {
      ...newSession('s-1', { question: 'Q?' }, 'deep-research-api'),
      tasks: [
        {
          id: 'a',
          query: 'A?',
          priority: 1,
          dependsOn: [],
          status: 'done',
          result: 'Found A [1].',
          sources: [1],
        },
        { id: 'b', query: 'B?', priority: 1, dependsOn: [], status: 'failed', error: 'timed out' },
      ],
    } as unknown as SessionState;
    expect(taskGraph(legacy).tasks?.map((t) => t.id)).toEqual(['a', 'b']);
    expect('tasks' in legacy).toBe(false);
    expect((legacy.backendState as TaskGraphState).tasks).toHaveLength(2);
    // The engine reads them through the backend's work: findings from finished tasks, failures named by task.
    expect(TASK_WORK.findings(legacy)).toEqual([{ agentId: 'a', task: 'A?', report: 'Found A [1].' }]);
    expect(TASK_WORK.records(legacy).map((r) => [r.id, r.status, r.error])).toEqual([
      ['a', 'done', undefined],
      ['b', 'failed', 'timed out'],
    ]);
  });
});
