import type { StoredSourceText } from '../../ports/source-texts.js';
import type { SessionContext } from '../session-context.js';
import type { Source } from '../session-state.js';

/**
 * Where a hosted answer is kept for a source it cites whose page could not be
 * read: the check compares with it, and says so.
 */
export const ANSWER_KEY = 'answer:';

/**
 * Keeps what research was shown of a source with the session (for checking
 * claims later, and for reading it again without a fetch). A store that
 * cannot take it costs nothing but the note in the log: research goes on.
 */
export async function keepSource(ctx: SessionContext, source: Source, text: string): Promise<void> {
  const store = ctx.deps.sourceTexts;
  if (!store || !text.trim()) return;
  try {
    await store.keep(ctx.state.sessionId, {
      key: source.key,
      n: source.n,
      ...(source.url ? { url: source.url } : {}),
      title: source.title,
      text,
    });
  } catch (err) {
    ctx.log.warn({ err, source: source.key }, "could not keep a source's text; research goes on");
  }
}

/** This session and those it continues: where its sources' texts are kept. */
export function lineage(ctx: SessionContext): string[] {
  return [ctx.state.sessionId, ...(ctx.state.earlierSessions ?? [])];
}

/** A source's kept text in this session or one it continues, or null (also when the store cannot answer). */
export async function keptSource(ctx: SessionContext, key: string): Promise<StoredSourceText | null> {
  const store = ctx.deps.sourceTexts;
  if (!store) return null;
  try {
    return await store.find(lineage(ctx), key);
  } catch (err) {
    ctx.log.warn({ err, source: key }, "could not read a source's kept text; reading it again");
    return null;
  }
}
