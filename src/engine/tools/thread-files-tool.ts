import { z } from 'zod';
import { type SessionContext, untilDeadline } from '../session-context.js';
import { LIMITS } from '../settings.js';
import { lineage } from '../sources/keep-source.js';
import { defineTool } from './define-tool.js';
import { limitQueries, textList } from './normalize-queries.js';
import { errorText, formatDocuments, interleave, type ToolOutcome } from './tool-result.js';

/** Where the files shared with the question are kept, among the session's sources. */
export const FILE_KEY_PREFIX = 'file:';

export const threadFilesTool = defineTool({
  name: 'thread_files',
  description:
    'Search the files shared with the question (in its Slack thread, or given in the terminal). Give up to 3 queries; results are numbered documents.',
  input: z.object({ queries: textList('Search queries, at most 3.', 'give at least one query') }),
  isEnabled: (ctx, role) =>
    role === 'agent' &&
    ctx.settings.sources?.threadFiles !== false &&
    Boolean(ctx.state.request.files?.given.length),
  budgeted: true,
  execute({ queries }, { ctx, until, activity }) {
    activity({ kind: 'searching_internal', queries });
    return searchSharedFiles(ctx, queries, until);
  },
});

/**
 * Passages of the files kept with this session (read in before research)
 * that match, as numbered documents citable like pages: the file's name as
 * its title, its Slack permalink as its address.
 */
async function searchSharedFiles(
  ctx: SessionContext,
  queries: string[],
  until: number,
): Promise<ToolOutcome> {
  const store = ctx.deps.sourceTexts;
  const files = ctx.state.request.files?.given ?? [];
  if (!store) return { content: 'Error: the shared files are not available in this session.', shown: [] };
  const stop = Math.min(until, ctx.deps.clock.now() + ctx.settings.toolTimeoutMs);
  const { unique, notes } = limitQueries(queries);
  const failures: string[] = [];
  const lists = await Promise.all(
    unique.map(async (query) => {
      try {
        const passages = await untilDeadline(ctx, stop, () =>
          store.passages(lineage(ctx), query, LIMITS.internalResultsPerQuery, FILE_KEY_PREFIX),
        );
        return passages.map((p) => {
          const file = files.find((f) => f.key === p.key);
          const source = ctx.sources.add({
            kind: 'file',
            key: p.key,
            title: file?.name ?? p.title,
            ...(file?.url ? { url: file.url } : {}),
            path: 'shared with the question',
            snippet: p.body.slice(0, 300),
          });
          return { source, content: p.body };
        });
      } catch (error) {
        ctx.log.warn({ err: error, query }, 'searching the shared files failed');
        failures.push(`${query} (${errorText(error)})`);
        return [];
      }
    }),
  );
  const docs = interleave(lists, (d) => `${d.source.n}:${d.content}`, LIMITS.searchResultsPerCall);
  if (docs.length === 0 && failures.length === unique.length)
    return { content: `Tool failed with error: ${failures.join('; ')}`, shown: [] };
  if (docs.length === 0) notes.push('No matching passages in the shared files.');
  // Numbered now: the kept text takes the number the report cites.
  await Promise.all(
    docs.map((d) =>
      store
        .keep(ctx.state.sessionId, {
          key: d.source.key,
          n: d.source.n,
          title: d.source.title,
          text: d.content,
        })
        .catch((err) => ctx.log.warn({ err, source: d.source.key }, 'could not number a shared file')),
    ),
  );
  return { content: formatDocuments(docs, failures, notes), shown: docs.map((d) => d.source.n) };
}
