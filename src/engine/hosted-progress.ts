import type { SessionContext } from './session-context.js';

/** What a hosted research has done so far, each step with an id that stays the same between reads. */
export interface HostedSteps {
  thoughts: { id: string; text: string }[];
  searches: { id: string; queries: string[] }[];
  reads: { id: string; urls: string[] }[];
}

/**
 * Shows the steps of a hosted research not shown before (`shown`, kept in
 * the checkpoint so a resumed session does not repeat them) as the agent's
 * activity: what its latest reasoning summary says it is doing, its
 * searches, the pages it read. Returns the ids now shown.
 */
export function showHostedProgress(
  ctx: SessionContext,
  agentId: string,
  shown: string[] | undefined,
  steps: HostedSteps,
): string[] {
  const seen = new Set(shown);
  const fresh = <T extends { id: string }>(items: T[]) => items.filter((i) => !seen.has(i.id));
  const thoughts = fresh(steps.thoughts);
  const searches = fresh(steps.searches);
  const reads = fresh(steps.reads);
  const emit = (activity: Parameters<typeof ctx.deps.emit>[0] & { type: 'agent_activity' }) =>
    ctx.deps.emit(activity);
  const about = thoughts.map((t) => headline(t.text)).findLast(Boolean);
  if (about) emit({ type: 'agent_activity', agentId, activity: { kind: 'thinking', about } });
  const queries = searches.flatMap((s) => s.queries);
  if (queries.length) emit({ type: 'agent_activity', agentId, activity: { kind: 'searching', queries } });
  const urls = reads.flatMap((r) => r.urls);
  if (urls.length) emit({ type: 'agent_activity', agentId, activity: { kind: 'reading', urls } });
  return [...seen, ...[...thoughts, ...searches, ...reads].map((i) => i.id)];
}

/** A reasoning summary's headline: its bold title (`**Looking for tariffs**`), else its first line, short. */
function headline(summary: string): string {
  const first = summary.trim().split('\n')[0] ?? '';
  const title = first.replace(/^\*\*(.*)\*\*$/, '$1').trim();
  return title.length > 80 ? `${title.slice(0, 79)}…` : title;
}

/** How a hosted backend polls a running request (exported for the bench, which counts the calls it makes). */
export const POLLS = {
  /**
   * Each wait is a tenth longer than the one before: an ended request is seen
   * at most about a tenth of its run time late (doubling would allow all of
   * it), for a few more reads, which cost nothing.
   */
  growth: 1.1,
  maxMs: 30_000,
  /**
   * With webhooks a request's end wakes its poller at once: polls only
   * refresh the task's progress, so they may be four times rarer.
   */
  maxWithNoticesMs: 120_000,
} as const;

/** The wait after `wait` (each a tenth longer), never past `maxMs`. */
export function nextPoll(wait: number, maxMs: number = POLLS.maxMs): number {
  return Math.min(wait * POLLS.growth, maxMs);
}
