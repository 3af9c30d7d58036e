import { describe, expect, it } from 'vitest';
import {
  graphProblem,
  planText,
  tasksFromPlan,
  toTasks,
} from '../../../src/backends/deep-research-api/task-graph.js';

const task = (id: string, priority: number, depends_on: string[] = []) => ({
  id,
  query: `About ${id}?`,
  priority,
  depends_on,
});

describe('the task graph', () => {
  it('refuses unknown ids, duplicates, self-dependencies, circles and too many tasks, in one sentence each', () => {
    expect(graphProblem([task('a', 1), task('b', 1, ['c'])], 6)).toBe(
      'task "b" depends on "c", which is not a task',
    );
    expect(graphProblem([task('a', 1), task('a', 2)], 6)).toBe('the id "a" is used twice');
    expect(graphProblem([task('a', 1, ['a'])], 6)).toBe('task "a" depends on itself');
    expect(graphProblem([task('a', 1, ['c']), task('b', 1, ['a']), task('c', 1, ['b'])], 6)).toBe(
      'the dependencies go round in a circle (a → c → b → a)',
    );
    expect(graphProblem([task('a', 1), task('b', 1), task('c', 1)], 2)).toBe(
      'there are 3 tasks; the most allowed is 2',
    );
    expect(graphProblem([], 6)).toBe('there are no tasks');
    expect(graphProblem([task('a', 1), task('b', 2, ['a'])], 6)).toBeNull();
  });

  it('orders tasks so each comes after what it needs, otherwise by priority', () => {
    const tasks = toTasks([task('compare', 9, ['options']), task('options', 1), task('costs', 5)]);
    expect(tasks.map((t) => t.id)).toEqual(['costs', 'options', 'compare']);
    expect(planText(tasks)).toBe(
      '1. [costs] About costs?\n2. [options] About options?\n3. [compare] About compare? (after options)',
    );
  });

  it('turns an edited plan back into tasks, mending what cannot be a graph', () => {
    const edited = [
      '1. [costs] What do heat pumps cost to run?',
      '2. Which grants exist in Scotland? (after costs)',
      '3. [compare] How do they compare? (after grants-x, task-2)',
      '4. [later] Depends on a later line (after extra)',
      '5. [extra] Beyond the limit',
      'A line that is not a step',
    ].join('\n');
    const tasks = tasksFromPlan(edited, 4);
    expect(tasks.map((t) => [t.id, t.query, t.dependsOn])).toEqual([
      ['costs', 'What do heat pumps cost to run?', []],
      ['task-2', 'Which grants exist in Scotland?', ['costs']],
      ['compare', 'How do they compare?', ['task-2']],
      ['later', 'Depends on a later line', []],
    ]);
    expect(tasksFromPlan(planText(tasks), 4)).toEqual(tasks);
  });
});
