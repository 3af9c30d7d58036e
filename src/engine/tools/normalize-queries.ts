import { z } from 'zod';
import { LIMITS } from '../settings.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Whatever the model sent as `queries`, as a clean list: a bare string is one
 * query (never split per character), control characters are stripped, numbers
 * become text, empties and non-text values are dropped.
 */
export function normalizeQueries(input: unknown): string[] {
  const items = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const clean = String(item).replace(CONTROL, '').trim();
    if (clean) out.push(clean);
  }
  return out;
}

/** The key under which a query is cached for the session: case and spacing do not make a new search. */
export function queryKey(query: string): string {
  return query.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Distinct queries, at most `LIMITS.queriesPerCall`, with a note for the model when some were dropped. */
export function limitQueries(queries: string[]): { unique: string[]; notes: string[] } {
  const seen = new Set<string>();
  const distinct = queries.filter((q) => !seen.has(queryKey(q)) && seen.add(queryKey(q)));
  const unique = distinct.slice(0, LIMITS.queriesPerCall);
  const notes =
    distinct.length > unique.length
      ? [`Only the first ${LIMITS.queriesPerCall} queries were run; send the others in another call.`]
      : [];
  return { unique, notes };
}

/** A list-of-text argument as the model may send it (a bare string, numbers, blanks), cleaned before it is checked. */
export function textList(description: string, emptyMessage: string) {
  return z.preprocess(normalizeQueries, z.array(z.string()).min(1, emptyMessage)).describe(description);
}
