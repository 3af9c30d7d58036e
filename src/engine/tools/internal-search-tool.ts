import { z } from 'zod';
import { type SessionContext, untilDeadline } from '../session-context.js';
import { noteFailure, noteWorked } from '../session-failures.js';
import type { Source } from '../session-state.js';
import { LIMITS } from '../settings.js';
import { keepSource } from '../sources/keep-source.js';
import { defineTool } from './define-tool.js';
import { limitQueries, textList } from './normalize-queries.js';
import { errorText, formatDocuments, interleave, type ToolOutcome } from './tool-result.js';

export const internalSearchTool = defineTool({
  name: 'internal_search',
  description:
    "Search the team's own documents (knowledge base). Give up to 3 queries; results are numbered documents.",
  input: z.object({ queries: textList('Search queries, at most 3.', 'give at least one query') }),
  isEnabled: (ctx, role) => role === 'agent' && ctx.hasInternalSearch,
  budgeted: true,
  execute({ queries }, { ctx, until, activity }) {
    activity({ kind: 'searching_internal', queries });
    return runInternalSearch(ctx, queries, until);
  },
});

/** Searches the team's knowledge base; passages come back as numbered documents like web results. */
export async function runInternalSearch(
  ctx: SessionContext,
  queries: string[],
  until: number,
): Promise<ToolOutcome> {
  const kb = ctx.deps.knowledgeBase;
  if (!kb || !ctx.hasInternalSearch) {
    return { content: 'Error: the knowledge base is not available in this session.', shown: [] };
  }
  const stop = Math.min(until, ctx.deps.clock.now() + ctx.settings.toolTimeoutMs);
  const { unique, notes } = limitQueries(queries);
  const failures: string[] = [];
  const lists = await Promise.all(
    unique.map(async (query) => {
      try {
        ctx.state.usage.internalSearches += 1;
        const hits = await untilDeadline(ctx, stop, (signal) =>
          kb.search(query, { limit: LIMITS.internalResultsPerQuery, signal }),
        );
        noteWorked(ctx.state, 'knowledge base');
        return hits.map((hit) => {
          const source = ctx.sources.add({
            kind: 'kb',
            key: `kb:${hit.documentId}`,
            title: hit.title,
            path: hit.path,
            snippet: hit.text.slice(0, 300),
            publishedAt: hit.updatedAt,
          });
          return { source, content: hit.text };
        });
      } catch (error) {
        ctx.log.warn({ err: error, query }, 'knowledge base search failed');
        failures.push(`${query} (${errorText(error)})`);
        noteFailure(ctx.state, 'knowledge base', errorText(error));
        return [];
      }
    }),
  );
  const docs = mergePassages(
    interleave(lists, (d) => `${d.source.n}:${d.content}`, LIMITS.searchResultsPerCall),
  );
  if (docs.length === 0 && failures.length === unique.length) {
    return { content: `Tool failed with error: ${failures.join('; ')}`, shown: [] };
  }
  if (docs.length === 0) notes.push('No matching documents in the knowledge base.');
  await Promise.all(docs.map((d) => keepSource(ctx, d.source, d.content)));
  return { content: formatDocuments(docs, failures, notes), shown: docs.map((d) => d.source.n) };
}

/** Several passages of one document become one numbered document. */
function mergePassages(docs: { source: Source; content: string }[]): { source: Source; content: string }[] {
  const byNumber = new Map<number, { source: Source; content: string }>();
  for (const doc of docs) {
    const existing = byNumber.get(doc.source.n);
    if (existing) existing.content += `\n\n[...]\n\n${doc.content}`;
    else byNumber.set(doc.source.n, { ...doc });
  }
  return [...byNumber.values()];
}
