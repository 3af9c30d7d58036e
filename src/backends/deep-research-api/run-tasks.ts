import { firstStop, type LoopView, researchLimits } from '../../engine/loop/stop-rules.js';
import { applySteering } from '../../engine/phases/steering.js';
import { researchEndOf, type SessionContext } from '../../engine/session-context.js';
import type { StopReason } from '../../engine/session-state.js';
import type { DeepResearchApi } from '../../ports/deep-research-api.js';
import { type DeepResearchSettings, runTask } from './run-task.js';
import { planText, tasksFromPlan } from './task-graph.js';
import { type ResearchTask, taskGraph } from './task-state.js';

/** How often the scheduler looks at the rules (cancel, time, budgets) while tasks run. */
const TICK_MS = 1000;

/**
 * The task graph's research: tasks whose dependencies have finished start in
 * priority order, at most MAX_PARALLEL_AGENTS at once, each with its
 * dependencies' findings. The session's stop rules are checked all along: a
 * cancel or an exhausted budget cancels the hosted requests still running
 * and research ends (the report is then partial, or the session cancelled).
 */
export async function runTasks(
  ctx: SessionContext,
  api: DeepResearchApi,
  settings: DeepResearchSettings,
): Promise<'report' | 'cancelled'> {
  const { state } = ctx;
  const tasks = tasksFor(ctx, settings.maxTasks);
  const until = researchEndOf(ctx);
  const stop = new AbortController();
  let saving = Promise.resolve();
  const save = () => {
    // One checkpoint write at a time, each with the state as it is when its turn comes.
    saving = saving.then(() => ctx.deps.saveCheckpoint(state));
    return saving;
  };
  const run = { api, settings, save, stop: stop.signal, until };
  // A request whose create was under way when the process stopped may have started: it is not sent again.
  for (const task of tasks.filter((t) => t.status === 'creating')) {
    task.status = 'failed';
    task.error =
      'its request to the deep-research API was being sent when research was interrupted; it was not sent again so it is not paid for twice';
    ctx.deps.emit({ type: 'agent_failed', agentId: task.id, reason: task.error });
  }
  const running = new Map<string, Promise<void>>();
  // A task that failed on a setting (ConfigError) ends research: the others' requests are cancelled.
  let fatal: unknown;
  // Tasks this run re-attaches to (their requests already exist) carry on first.
  for (const task of tasks.filter((t) => t.status === 'running')) start(task);
  const limits = researchLimits(Number.POSITIVE_INFINITY, until);
  const loop: LoopView = { cycle: 0, turn: 0, calls: [] };

  function start(task: ResearchTask) {
    running.set(
      task.id,
      runTask(ctx, task, run)
        .catch((error) => {
          fatal ??= error;
        })
        .finally(() => running.delete(task.id)),
    );
  }

  for (;;) {
    if (fatal) {
      stop.abort(fatal);
      await Promise.all(running.values());
      await saving;
      throw fatal;
    }
    const stopped = firstStop(limits, ctx, loop);
    if (stopped) {
      stop.abort(new Error(stopped));
      await Promise.all(running.values());
      await saving;
      if (stopped === 'cancelled') return 'cancelled';
      // Cycles are unlimited here: what stopped research is the time or a budget.
      state.stopReason = stopped as StopReason;
      ctx.deps.emit({ type: 'research_stopped', reason: state.stopReason });
      return 'report';
    }
    const next = runnable(tasks, running, ctx.settings.maxParallelAgents);
    // The requester's notes reach the tasks that start after them (read only when one is about to).
    if (next.length) await applySteering(ctx);
    for (const task of next) start(task);
    if (running.size === 0) break;
    await Promise.race([...running.values(), new Promise((r) => setTimeout(r, TICK_MS))]);
  }
  await saving;
  return 'report';
}

/** The tasks to run: the planned graph, or the reviewed plan's edit of it (a plan edited before research began). */
function tasksFor(ctx: SessionContext, maxTasks: number): ResearchTask[] {
  const { state } = ctx;
  const graph = taskGraph(state);
  const untouched = (graph.tasks ?? []).every((t) => t.status === 'pending');
  const planned = graph.tasks ?? [];
  if (untouched && state.plan && state.plan !== planText(planned))
    graph.tasks = tasksFromPlan(state.plan, maxTasks);
  return graph.tasks ?? [];
}

/** Pending tasks not yet started whose dependencies have ended, highest priority first, up to the free slots. */
function runnable(tasks: ResearchTask[], running: Map<string, unknown>, parallel: number): ResearchTask[] {
  const ended = new Set(tasks.filter((t) => t.status === 'done' || t.status === 'failed').map((t) => t.id));
  return tasks
    .filter((t) => t.status === 'pending' && !running.has(t.id) && t.dependsOn.every((d) => ended.has(d)))
    .sort((a, b) => b.priority - a.priority)
    .slice(0, Math.max(0, parallel - running.size));
}
