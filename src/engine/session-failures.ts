import { ProviderError } from './errors.js';
import type { SessionState } from './session-state.js';

/** Records one failed call to a dependency ("web search") and its cause. */
export function noteFailure(state: SessionState, dependency: string, cause: string): void {
  const before = state.failures?.[dependency]?.count ?? 0;
  state.failures = { ...state.failures, [dependency]: { count: before + 1, last: cause } };
}

/**
 * Why research produced nothing to report on, as an error naming the cause,
 * or null when there is something (or it simply found nothing): web search
 * that never worked, or every research agent failing.
 */
export function nothingResearched(state: SessionState): ProviderError | null {
  const cannotSearch = searchNeverWorked(state);
  if (cannotSearch) return cannotSearch;
  const failed = state.agents.filter((a) => a.status === 'failed');
  if (state.sources.length > 0 || failed.length === 0 || failed.length < state.agents.length) return null;
  const reasons = [...new Set(failed.map((a) => a.error ?? 'unknown error'))].join('; ');
  return new ProviderError(
    'research_failed',
    `Every research agent failed (${reasons}), so there is nothing to report: try again later, or check the model server if it keeps happening.`,
    false,
  );
}

/**
 * Research that gathered nothing because web search never worked is a
 * failure of the search provider, not an empty result: the person is told
 * which dependency failed and why, instead of reading "nothing was found".
 */
function searchNeverWorked(state: SessionState): ProviderError | null {
  const failed = state.failures?.['web search'];
  if (!failed || state.sources.length > 0 || Object.keys(state.searches).length > 0) return null;
  return new ProviderError(
    'search_unavailable',
    `Web search failed every time it was tried (${failed.last}), so nothing could be researched: check the search provider (SEARCH_PROVIDER and its key or URL) and try again.`,
    false,
  );
}
