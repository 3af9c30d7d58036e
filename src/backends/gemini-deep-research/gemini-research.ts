import { citeAnnotations } from '../../engine/citations/cite-annotations.js';
import { sleep } from '../../engine/deadline-signal.js';
import { nextPoll, showHostedProgress } from '../../engine/hosted-progress.js';
import { researchRequestText } from '../../engine/phases/research-request.js';
import { applySteering } from '../../engine/phases/steering.js';
import type { ResearchMethod } from '../../engine/run-session.js';
import { deadlineOf, researchEndOf, type SessionContext } from '../../engine/session-context.js';
import type { StopReason } from '../../engine/session-state.js';
import { keepSource } from '../../engine/sources/keep-source.js';
import { ProviderError } from '../../ports/errors.js';
import { addModelUsage } from '../../ports/usage.js';
import { readGroundedPages } from './grounded-pages.js';
import type { InteractionView } from './interaction-view.js';
import type { InteractionsApi } from './interactions-api.js';

export interface GeminiSettings {
  apiKey?: string;
  baseURL: string;
  /** deep-research-preview-04-2026 (fast) or deep-research-max-preview-04-2026 (thorough). */
  agent: string;
  /** The first wait between reads of a running interaction (growing to 30 s). */
  pollMs: number;
}

/** What this backend keeps in the session's checkpoint (`backendState`). */
export interface GeminiState {
  /** The agent's proposed plan's interaction: approving it continues that conversation. */
  planInteraction?: string;
  /** The plan as the agent proposed it (an edited plan differs). */
  proposedPlan?: string;
  /** The research interaction: `creating` while its request is sent (a resumed session does not send it again). */
  research?: { status: 'creating' | 'running' | 'done'; id?: string };
  /** [Research more]: the earlier version's research interaction, continued. */
  previousInteraction?: string;
  /** Progress already shown (step ids). */
  shown?: string[];
  /** The agent's report, its citations as the session's numbers. */
  report?: string;
}

/** The one research card the thread and terminal show for the agent. */
export const AGENT_ID = 'gemini';
const ENDED = new Set([
  'completed',
  'failed',
  'cancelled',
  'incomplete',
  'budget_exceeded',
  'requires_action',
]);

export function geminiState(ctx: SessionContext): GeminiState {
  ctx.state.backendState ??= {};
  return ctx.state.backendState as GeminiState;
}

/**
 * Gemini Deep Research on the engine's session skeleton: the agent's own
 * plan when the requester reviews plans (collaborative planning: the agent
 * proposes, the approval or edit is the next turn), its research in the
 * background on Google's side (read by polling; thought summaries, searches
 * and pages shown as they come), and its own cited report, whose grounding
 * links are resolved to the real pages, read, and checked like any report.
 */
export function geminiMethod(api: () => InteractionsApi, settings: GeminiSettings): ResearchMethod {
  return {
    clarifiesFirst: false,
    searchesItself: true,
    async plan(ctx) {
      const { state } = ctx;
      // Without a review the agent plans as it researches: nothing waits on a plan.
      if (!state.request.planReview)
        return {
          kind: 'plan',
          plan: `Gemini Deep Research (${settings.agent}) plans and researches on its own: ${state.request.question}`,
        };
      const own = geminiState(ctx);
      // Planning is cheap and answers in a minute: a plan whose id was lost in a crash is simply asked again.
      if (!own.planInteraction) {
        const created = await api().create({
          agent: settings.agent,
          input: researchRequestText(ctx.deps.prompts, state.request),
          collaborativePlanning: true,
        });
        own.planInteraction = created.id;
        await ctx.deps.saveCheckpoint(state);
      }
      const id = own.planInteraction;
      // A plan that never comes must not hold the session past its time budget.
      const planned = await follow(ctx, api(), id, settings, () => {}, deadlineOf(ctx)).catch(
        async (error) => {
          if (!(error instanceof TimeUp)) throw error;
          await stop(ctx, api(), id);
          throw new ProviderError(
            'research_failed',
            `Gemini Deep Research had not proposed a plan when the time budget ran out (${Math.round(ctx.settings.timeBudgetMs / 60_000)} min): raise TIME_BUDGET_MINUTES or try again.`,
            false,
          );
        },
      );
      const plan = planned.text.trim();
      if (planned.status !== 'completed' || !plan)
        throw new ProviderError(
          'research_failed',
          `Gemini Deep Research could not plan: ${ending(planned)}.`,
          false,
        );
      own.proposedPlan = plan;
      return { kind: 'plan', plan };
    },
    async research(ctx) {
      const own = geminiState(ctx);
      if (own.research?.status === 'creating')
        throw new ProviderError(
          'hosted_create_unconfirmed',
          'Its request to the Gemini API was being sent when research was interrupted; it was not sent again so it is not paid for twice: ask again to research it anew.',
          false,
        );
      if (!own.research) {
        ctx.deps.emit({ type: 'agent_started', agentId: AGENT_ID, task: ctx.state.request.question });
        ctx.deps.emit({ type: 'agent_activity', agentId: AGENT_ID, activity: { kind: 'thinking' } });
        await applySteering(ctx);
        const input = turnInput(ctx, own);
        own.research = { status: 'creating' };
        await ctx.deps.saveCheckpoint(ctx.state);
        const created = await api().create({
          agent: settings.agent,
          input,
          previousInteractionId: own.planInteraction ?? own.previousInteraction,
          collaborativePlanning: false,
        });
        own.research = { status: 'running', id: created.id };
        await ctx.deps.saveCheckpoint(ctx.state);
      }
      if (own.research.status === 'done') return 'report';
      const id = own.research.id!;
      let ended: InteractionView;
      try {
        ended = await follow(
          ctx,
          api(),
          id,
          settings,
          (view) => {
            own.shown = showHostedProgress(ctx, AGENT_ID, own.shown, view);
          },
          researchEndOf(ctx),
        );
      } catch (error) {
        // Handed back (the process drains or lost the session): the interaction runs on for whoever resumes it.
        if (ctx.cancel.aborted && ctx.deps.handedBack?.()) throw error;
        if (ctx.cancel.aborted || error instanceof TimeUp) await stop(ctx, api(), id);
        if (ctx.cancel.aborted) return 'cancelled';
        if (error instanceof TimeUp) {
          ctx.state.stopReason = 'time_budget' satisfies StopReason;
          ctx.deps.emit({ type: 'research_stopped', reason: 'time_budget' });
          throw new ProviderError(
            'research_failed',
            `Gemini Deep Research had not finished when the time budget ran out (${Math.round(ctx.settings.timeBudgetMs / 60_000)} min), so there is no report: raise TIME_BUDGET_MINUTES or try again.`,
            false,
          );
        }
        throw error;
      }
      await finish(ctx, own, ended, settings);
      return 'report';
    },
    report: (ctx) => geminiState(ctx).report ?? null,
  };
}

/** What the research turn says: the approval (or the edited plan), the requester's notes, or the request itself. */
function turnInput(ctx: SessionContext, own: GeminiState): string {
  const { state, deps } = ctx;
  const notes = state.history
    .slice(1)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
  const said = notes.length ? `\n\nThe requester added:\n${notes.join('\n')}` : '';
  if (own.previousInteraction)
    return `Research further than your previous report: go deeper where it was thin or left questions open, then write a complete new report with citations.${said}`;
  if (!own.planInteraction) return researchRequestText(deps.prompts, state.request) + said;
  if (state.plan && state.plan.trim() !== own.proposedPlan)
    return `Carry out this plan instead of the one you proposed, then write the full report with citations:\n\n${state.plan}${said}`;
  return `The plan is approved: carry it out and write the full report with citations.${said}`;
}

class TimeUp extends Error {}

/**
 * Reads interaction `id` until it ends, waiting a tenth longer each time (up
 * to 30 s); `until` (the research's share of the time budget) stops it.
 */
async function follow(
  ctx: SessionContext,
  api: InteractionsApi,
  id: string,
  settings: GeminiSettings,
  progress: (view: InteractionView) => void,
  until = Number.POSITIVE_INFINITY,
): Promise<InteractionView> {
  for (let wait = settings.pollMs; ; wait = nextPoll(wait)) {
    ctx.cancel.throwIfAborted();
    const view = await api.get(id, ctx.cancel);
    progress(view);
    if (ENDED.has(view.status)) return view;
    const left = until - ctx.deps.clock.now();
    if (left <= 0) throw new TimeUp();
    await sleep(Math.min(wait, left), ctx.cancel);
  }
}

async function stop(ctx: SessionContext, api: InteractionsApi, id: string): Promise<void> {
  await api
    .cancel(id)
    .catch((err) => ctx.log.warn({ err, interaction: id }, 'could not cancel a Gemini interaction'));
}

/** The ended research: what it cost, and its report with the cited pages as the session's sources. */
async function finish(
  ctx: SessionContext,
  own: GeminiState,
  view: InteractionView,
  settings: GeminiSettings,
): Promise<void> {
  const { usage } = ctx.state;
  if (view.usage) {
    addModelUsage(usage, 'deep_research', settings.agent, view.usage);
    usage.hostedSearches = (usage.hostedSearches ?? 0) + view.usage.searches;
  }
  ctx.state.toolCalls += view.searches.length + view.reads.length;
  if (view.status !== 'completed' || !view.text.trim()) {
    ctx.deps.emit({ type: 'agent_failed', agentId: AGENT_ID, reason: ending(view) });
    throw new ProviderError(
      'research_failed',
      `Gemini Deep Research did not finish: ${ending(view)}.`,
      false,
    );
  }
  const pages = await readGroundedPages(ctx, view.citations, settings.baseURL);
  const { text, cited } = citeAnnotations(view.text, pages.citations, ctx.sources);
  // The page itself, not the agent's words about it, is what the claim check compares the report with.
  await Promise.all(
    cited.flatMap((n) => {
      const source = ctx.sources.get(n)!;
      const page = pages.texts.get(source.key);
      return page ? [keepSource(ctx, source, page)] : [];
    }),
  );
  usage.pagesRead += pages.texts.size;
  usage.pagesFailed = (usage.pagesFailed ?? 0) + pages.unread;
  if (pages.unresolved)
    ctx.deps.emit({
      type: 'checking',
      text: `${pages.unresolved} cited link${pages.unresolved === 1 ? '' : 's'} could not be followed to ${pages.unresolved === 1 ? 'its page' : 'their pages'} and ${pages.unresolved === 1 ? 'was' : 'were'} left out`,
    });
  own.report = text;
  own.research = { ...own.research!, status: 'done' };
  const read = cited.flatMap((n) => {
    const s = ctx.sources.get(n);
    return s?.url ? [{ url: s.url, title: s.title }] : [];
  });
  if (read.length) ctx.deps.emit({ type: 'agent_read', agentId: AGENT_ID, pages: read });
  ctx.deps.emit({ type: 'agent_done', agentId: AGENT_ID, sources: cited.length });
  await ctx.deps.saveCheckpoint(ctx.state);
}

/** Why an interaction ended without an answer, in words. */
function ending(view: InteractionView): string {
  if (view.status === 'completed') return 'it returned an empty answer';
  if (view.status === 'requires_action') return 'it asked for an action this app does not take';
  return `${view.status.replace('_', ' ')}${view.error ? ` (${view.error})` : ''}`;
}
