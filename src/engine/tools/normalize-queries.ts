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
