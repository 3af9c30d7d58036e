import { z } from 'zod';
import { canonicalUrl } from '../../ports/canonical-url.js';
import { type SessionContext, untilDeadline } from '../session-context.js';
import { noteFailure, noteWorked } from '../session-failures.js';
import { LIMITS } from '../settings.js';
import { defineTool } from './define-tool.js';
import { limitQueries, queryKey, textList } from './normalize-queries.js';
import { errorText, formatDocuments, interleave, type ToolOutcome } from './tool-result.js';

export const webSearchTool = defineTool({
  name: 'web_search',
  description:
    'Search the web. Give up to 3 short, distinct queries; they run in parallel. Results are numbered documents.',
  input: z.object({ queries: textList('Search queries, at most 3.', 'give at least one query') }),
  isEnabled: (ctx, role) => role === 'agent' && Boolean(ctx.deps.webSearch),
  budgeted: true,
  execute({ queries }, { ctx, until, activity }) {
    activity({ kind: 'searching', queries });
    return runWebSearch(ctx, queries, until);
  },
});

/**
 * Runs the queries in parallel; a query already searched anywhere in this
 * session (or in flight) is served from the session's cache. Results are
 * interleaved round-robin, deduped by canonical URL and capped.
 */
export async function runWebSearch(
  ctx: SessionContext,
  queries: string[],
  until: number,
): Promise<ToolOutcome> {
  const search = ctx.deps.webSearch;
  if (!search) return { content: 'Error: web search is not available in this session.', shown: [] };
  const { unique, notes } = limitQueries(queries);
  const failures: string[] = [];
  const lists = await Promise.all(
    unique.map(async (query) => {
      try {
        const found = await cachedSearch(ctx, query, until);
        noteWorked(ctx.state, 'web search');
        return found;
      } catch (error) {
        ctx.log.warn({ err: error, query }, 'web search failed');
        failures.push(`${query} (${errorText(error)})`);
        noteFailure(ctx.state, 'web search', errorText(error));
        return [];
      }
    }),
  );
  const picked = interleave(lists, (n) => n, LIMITS.searchResultsPerCall);
  if (picked.length === 0 && failures.length === unique.length) {
    return { content: `Tool failed with error: every search failed: ${failures.join('; ')}`, shown: [] };
  }
  const docs = picked.map((n) => {
    const source = ctx.sources.get(n)!;
    return { source, content: source.snippet };
  });
  if (docs.length === 0) notes.push('No results. Try different or broader queries.');
  return { content: formatDocuments(docs, failures, notes), shown: docs.map((d) => d.source.n) };
}

function cachedSearch(ctx: SessionContext, query: string, until: number): Promise<number[]> {
  const key = queryKey(query);
  const saved = ctx.state.searches[key];
  if (saved) return Promise.resolve(saved);
  let pending = ctx.searchCache.get(key);
  if (!pending) {
    pending = freshSearch(ctx, query, until).then((numbers) => {
      ctx.state.searches[key] = numbers;
      return numbers;
    });
    // A failed search may succeed later: forget it instead of caching the failure.
    pending.catch(() => ctx.searchCache.delete(key));
    ctx.searchCache.set(key, pending);
  }
  return pending;
}

async function freshSearch(ctx: SessionContext, query: string, until: number): Promise<number[]> {
  const stop = Math.min(until, ctx.deps.clock.now() + ctx.settings.toolTimeoutMs);
  ctx.state.usage.webSearches += 1;
  const hits = await untilDeadline(ctx, stop, (signal) =>
    ctx.deps.webSearch!.search(query, { maxResults: LIMITS.searchResultsPerQuery, signal }),
  );
  const numbers: number[] = [];
  for (const hit of hits) {
    const key = canonicalUrl(hit.url);
    if (!key || (!hit.title.trim() && !hit.snippet.trim())) continue;
    const source = ctx.sources.add({
      kind: 'web',
      key,
      url: key,
      title: hit.title.trim(),
      snippet: hit.snippet.trim(),
      publishedAt: hit.publishedAt,
    });
    if (!numbers.includes(source.n)) numbers.push(source.n);
  }
  return numbers;
}
