import { citeAnnotations } from '../../engine/citations/cite-annotations.js';
import { nextPoll, POLLS, showHostedProgress } from '../../engine/hosted-progress.js';
import { researchRequestText } from '../../engine/phases/research-request.js';
import { callModel, currentDate, type SessionContext } from '../../engine/session-context.js';
import { noteFailure, noteWorked } from '../../engine/session-failures.js';
import { keepCitedPages } from '../../engine/sources/read-cited-pages.js';
import { errorText } from '../../engine/tools/tool-result.js';
import type { DeepResearchApi, HostedResponse, ReasoningEffort } from '../../ports/deep-research-api.js';
import { ConfigError } from '../../ports/errors.js';
import { addModelUsage } from '../../ports/usage.js';
import { type ResearchTask, taskGraph } from './task-state.js';

export interface DeepResearchSettings {
  model: string;
  maxTasks: number;
  /** A task running longer than this is cancelled and fails. */
  taskTimeMs: number;
  /** First wait between polls; each next is a tenth longer, up to POLLS.maxMs. */
  pollMs: number;
  /** How hard the hosted model reasons. */
  effort: ReasoningEffort;
  maxToolCalls?: number;
}

/** What running one task needs besides the session. */
export interface TaskRun {
  api: DeepResearchApi;
  settings: DeepResearchSettings;
  /** Saves the session's checkpoint (calls are taken in turn). */
  save: () => Promise<void>;
  /** Aborted when research stops early (time, budgets): the task's request is cancelled. */
  stop: AbortSignal;
  /** Research ends here (the report keeps its share of the time). */
  until: number;
}

/**
 * One task, from wherever its checkpoint left it: its instructions (one
 * short model call), its hosted request (created once: the id is saved
 * before anything waits on it), then polling with backoff until the request
 * ends. Searches and pages show as progress while it runs; the answer's
 * citations become session sources. A cancel, a stop or the task's own time
 * limit cancels the hosted request.
 */
export async function runTask(ctx: SessionContext, task: ResearchTask, run: TaskRun): Promise<void> {
  const { deps } = ctx;
  try {
    if (task.status === 'pending') {
      deps.emit({ type: 'agent_started', agentId: task.id, task: task.query });
      deps.emit({ type: 'agent_activity', agentId: task.id, activity: { kind: 'thinking' } });
      task.instructions ??= await instructions(ctx, task, run.until);
      // Research may have stopped while the instructions were written: nothing is created after that.
      run.stop.throwIfAborted();
      ctx.cancel.throwIfAborted();
      task.status = 'creating';
      await run.save();
      // Not abortable: a create answers at once, and its id must be kept once the request exists.
      const created = await run.api.create({
        model: run.settings.model,
        instructions: task.instructions,
        input: task.query,
        metadata: { session_id: ctx.state.sessionId, task_id: task.id },
        effort: run.settings.effort,
        maxToolCalls: run.settings.maxToolCalls,
      });
      task.responseId = created.id;
      task.status = 'running';
      task.createdAt = deps.clock.now();
      await run.save();
    }
    const final = await poll(ctx, task, run);
    await finish(ctx, task, final, run.settings.model);
  } catch (error) {
    // Handed back (the process drains or lost the session): the task stays as it is and its request runs
    // on, for whoever resumes the session to re-attach to.
    if (ctx.cancel.aborted && deps.handedBack?.()) return;
    if (ctx.cancel.aborted || run.stop.aborted) {
      await cancelHosted(ctx, task, run);
      task.status = ctx.cancel.aborted ? 'cancelled' : 'failed';
      task.error = ctx.cancel.aborted ? 'cancelled' : 'research stopped before it finished';
    } else if (error instanceof ConfigError) {
      // A setting every task shares (the model, the key) fails them all alike: research stops, and its
      // sentence is said once, as the session's failure, not on every task's card.
      task.status = 'failed';
      task.error = 'stopped: a setting needs fixing';
      deps.emit({ type: 'agent_failed', agentId: task.id, reason: task.error });
      await run.save();
      throw error;
    } else {
      task.status = 'failed';
      task.error = errorText(error);
      noteFailure(ctx.state, 'deep research', task.error);
    }
    if (task.status === 'failed') deps.emit({ type: 'agent_failed', agentId: task.id, reason: task.error! });
  }
  await run.save();
}

/**
 * Polls until the request ends (a webhook notice ends a wait early); past the
 * task's time limit it is cancelled and the task fails.
 */
async function poll(ctx: SessionContext, task: ResearchTask, run: TaskRun): Promise<HostedResponse> {
  const started = task.createdAt ?? ctx.deps.clock.now();
  const signal = AbortSignal.any([ctx.cancel, run.stop]);
  const slowest = run.api.notifies ? POLLS.maxWithNoticesMs : POLLS.maxMs;
  for (let wait = run.settings.pollMs; ; wait = nextPoll(wait, slowest)) {
    const response = await run.api.retrieve(task.responseId!, signal);
    noteWorked(ctx.state, 'deep research');
    showProgress(ctx, task, response);
    if (!['queued', 'in_progress'].includes(response.status)) return response;
    if (ctx.deps.clock.now() - started >= run.settings.taskTimeMs) {
      await cancelHosted(ctx, task, run);
      throw new Error(
        `it took longer than ${Math.round(run.settings.taskTimeMs / 60_000)} min, its time limit`,
      );
    }
    await run.api.wait(
      task.responseId!,
      Math.min(wait, Math.max(0, started + run.settings.taskTimeMs - ctx.deps.clock.now())),
      signal,
    );
  }
}

/**
 * New reasoning summaries, searches and pages of a running request, each
 * shown once (what was shown is checkpointed with the task).
 */
function showProgress(ctx: SessionContext, task: ResearchTask, response: HostedResponse): void {
  const searches = response.searches;
  task.shown = showHostedProgress(ctx, task.id, task.shown, {
    thoughts: response.reasoning.map((text, i) => ({ id: `reasoning:${i}`, text })),
    searches: searches.flatMap((s) => (s.kind === 'search' ? [{ id: s.id, queries: s.queries ?? [] }] : [])),
    reads: searches.flatMap((s) => (s.kind !== 'search' ? [{ id: s.id, urls: s.url ? [s.url] : [] }] : [])),
  });
}

/** A request that ended: its answer, cited with the session's numbers, or why it did not finish. */
async function finish(
  ctx: SessionContext,
  task: ResearchTask,
  response: HostedResponse,
  model: string,
): Promise<void> {
  const { usage } = ctx.state;
  if (response.usage) {
    addModelUsage(usage, 'deep_research', model, response.usage);
  }
  const searches = response.searches.filter((s) => s.kind === 'search').length;
  usage.hostedSearches = (usage.hostedSearches ?? 0) + searches;
  usage.pagesRead += response.searches.filter((s) => s.kind === 'open_page').length;
  ctx.state.toolCalls += response.searches.length;
  if (response.status !== 'completed' || !response.text.trim()) {
    const why =
      response.status === 'completed'
        ? 'the deep-research model returned an empty answer'
        : `${response.status}: ${response.error ?? 'no reason given'}`;
    throw new Error(why.startsWith('incomplete: incomplete:') ? why.slice('incomplete: '.length) : why);
  }
  const { text, cited } = citeAnnotations(response.text, response.citations, ctx.sources);
  task.result = text;
  task.sources = cited;
  task.status = 'done';
  // The task's card lists the pages its answer cites.
  const pages = cited.flatMap((n) => {
    const source = ctx.sources.get(n);
    return source?.url ? [{ url: source.url, title: source.title }] : [];
  });
  if (pages.length) ctx.deps.emit({ type: 'agent_read', agentId: task.id, pages });
  // The pages themselves, not the hosted model's words about them, are what the claim check compares with.
  await keepCitedPages(ctx, cited, text);
  ctx.deps.emit({ type: 'agent_done', agentId: task.id, sources: cited.length });
}

async function instructions(ctx: SessionContext, task: ResearchTask, until: number): Promise<string> {
  const { deps, state } = ctx;
  const system = deps.prompts.render('task-instructions', { current_date: currentDate(ctx) });
  const before = (taskGraph(state).tasks ?? []).filter((t) => task.dependsOn.includes(t.id) && t.result);
  // After the request itself, this backend's history holds only the requester's notes (see applySteering).
  const notes = state.history.slice(1).filter((m) => m.role === 'user');
  const request = deps.prompts.render('task-instructions-request', {
    request: researchRequestText(deps.prompts, state.request),
    task: task.query,
    dependency_findings: before.map((t) => `### ${t.query}\n\n${t.result}`).join('\n\n'),
    requester_notes: notes.map((m) => m.content).join('\n'),
  }).text;
  const response = await callModel(ctx, {
    model: ctx.settings.models.orchestrator,
    purpose: 'task_instructions',
    messages: [
      { role: 'system', content: system.text },
      { role: 'user', content: request },
    ],
    maxTokens: system.settings.maxTokens,
    until,
  });
  // Without usable instructions the task still runs, on its question alone.
  return response.text.trim() || task.query;
}

async function cancelHosted(ctx: SessionContext, task: ResearchTask, run: TaskRun): Promise<void> {
  if (!task.responseId || task.status !== 'running') return;
  await run.api
    .cancel(task.responseId)
    .catch((err) =>
      ctx.log.warn(
        { err, task: task.id, response: task.responseId },
        'could not cancel a deep-research request',
      ),
    );
}
