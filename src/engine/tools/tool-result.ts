import type { Source } from '../session-state.js';

/** What a tool hands back to the model, and the source numbers it showed (for the open-url nudge and progress). */
export interface ToolOutcome {
  content: string;
  shown: number[];
  /** Sources whose whole page was read (not only listed): an agent's task card shows them. */
  read?: number[];
}

export interface ResultDocument {
  source: Source;
  content: string;
}

/**
 * The model-facing format for search hits and pages: numbered documents the
 * prompts tell agents to cite by their `document` field.
 */
export function formatDocuments(docs: ResultDocument[], failures: string[], notes: string[] = []): string {
  const results = docs.map(({ source, content }) => ({
    document: source.n,
    title: source.title,
    ...(source.url ? { url: source.url } : { path: source.path }),
    ...(source.publishedAt ? { published: source.publishedAt } : {}),
    ...(source.author ? { author: source.author } : {}),
    content,
  }));
  const body: Record<string, unknown> = { results };
  if (failures.length) body.failed = failures;
  if (notes.length) body.notes = notes;
  return JSON.stringify(body, null, 2);
}

/** Round-robin across per-query result lists, dropping repeats, up to `cap`. */
export function interleave<T>(lists: T[][], key: (item: T) => unknown, cap: number): T[] {
  const out: T[] = [];
  const seen = new Set<unknown>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest && out.length < cap; i++) {
    for (const list of lists) {
      const item = list[i];
      if (item === undefined || seen.has(key(item))) continue;
      seen.add(key(item));
      out.push(item);
      if (out.length >= cap) break;
    }
  }
  return out;
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
