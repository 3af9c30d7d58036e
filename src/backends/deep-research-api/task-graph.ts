import { z } from 'zod';
import { strictJsonSchema } from '../../engine/strict-schema.js';
import type { ResearchTask } from './task-state.js';

/** What the planning model answers: questions for the requester, or the tasks (one of the two empty). */
export const PLAN_ANSWER = z.object({
  questions: z.array(z.string().min(1)),
  tasks: z.array(
    z.object({
      id: z.string().min(1).describe('a short slug, e.g. "market-size"'),
      query: z.string().min(1).describe('the research question of this task'),
      priority: z.number().int().describe('higher runs first'),
      depends_on: z.array(z.string()).describe('ids of tasks whose findings it needs'),
    }),
  ),
});
export type PlanAnswer = z.infer<typeof PLAN_ANSWER>;

/** The answer's JSON Schema for structured output (strict: every property required, nothing else allowed). */
export const PLAN_SCHEMA = strictJsonSchema(PLAN_ANSWER);

/** Why these tasks are not a usable graph (one sentence), or null. */
export function graphProblem(tasks: PlanAnswer['tasks'], maxTasks: number): string | null {
  if (tasks.length === 0) return 'there are no tasks';
  if (tasks.length > maxTasks) return `there are ${tasks.length} tasks; the most allowed is ${maxTasks}`;
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) return `the id "${t.id}" is used twice`;
    ids.add(t.id);
  }
  for (const t of tasks)
    for (const d of t.depends_on) {
      if (d === t.id) return `task "${t.id}" depends on itself`;
      if (!ids.has(d)) return `task "${t.id}" depends on "${d}", which is not a task`;
    }
  const cycle = findCycle(tasks);
  return cycle ? `the dependencies go round in a circle (${cycle.join(' → ')})` : null;
}

function findCycle(tasks: PlanAnswer['tasks']): string[] | null {
  const deps = new Map(tasks.map((t) => [t.id, t.depends_on]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = visit(d);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const t of tasks) {
    const found = visit(t.id);
    if (found) return found;
  }
  return null;
}

/**
 * Planned tasks (a valid graph) as the session keeps them, in an order they
 * can start in: each after what it depends on, otherwise highest priority
 * first (ties keep the planner's order).
 */
export function toTasks(planned: PlanAnswer['tasks']): ResearchTask[] {
  const waiting = planned.map((t, i) => ({ t, i }));
  const placed = new Set<string>();
  const out: ResearchTask[] = [];
  while (waiting.length > 0) {
    const ready = waiting.filter(({ t }) => t.depends_on.every((d) => placed.has(d)));
    // A circle (refused before this) would leave nothing ready: take the rest as they come.
    const pool = ready.length ? ready : waiting;
    const next = pool.reduce((a, b) => (b.t.priority > a.t.priority ? b : a));
    waiting.splice(waiting.indexOf(next), 1);
    placed.add(next.t.id);
    out.push({
      id: next.t.id,
      query: next.t.query.trim(),
      priority: next.t.priority,
      dependsOn: [...new Set(next.t.depends_on)],
      status: 'pending',
    });
  }
  return out;
}

/** The plan as the requester reviews it: one numbered line per task, in the order they start, with what each waits for. */
export function planText(tasks: ResearchTask[]): string {
  return tasks
    .map(
      (t, i) =>
        `${i + 1}. [${t.id}] ${t.query}${t.dependsOn.length ? ` (after ${t.dependsOn.join(', ')})` : ''}`,
    )
    .join('\n');
}

const LINE = /^\s*\d+[.)]\s+(?:\[([^\]]+)\]\s*)?(.*?)(?:\s*\(after ([^)]*)\))?\s*$/;

/**
 * An edited plan back into tasks: each numbered line is a task, earlier
 * lines first; `[id]` and `(after a, b)` are kept where given. What cannot be
 * a graph is mended rather than refused (the requester edits prose, not
 * JSON): unknown or circular dependencies are dropped, lines past the most
 * allowed are left out.
 */
export function tasksFromPlan(text: string, maxTasks: number): ResearchTask[] {
  const lines = text
    .split('\n')
    .map((l) => LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && Boolean(m[2]?.trim()))
    .slice(0, maxTasks);
  const used = new Set<string>();
  const planned = lines.map((m, i) => {
    let id = slug(m[1] ?? '') || `task-${i + 1}`;
    while (used.has(id)) id = `${id}-${i + 1}`;
    used.add(id);
    const after = (m[3] ?? '')
      .split(',')
      .map((d) => slug(d))
      .filter(Boolean);
    return { id, query: m[2]!.trim(), priority: lines.length - i, depends_on: after };
  });
  // Only dependencies on earlier lines are kept: that drops unknown ids and any circle.
  const kept = planned.map((t, i) => ({
    ...t,
    depends_on: t.depends_on.filter((d) => planned.slice(0, i).some((p) => p.id === d)),
  }));
  return toTasks(kept);
}

function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}
