import type { SourceText, SourceTexts, StoredSourceText } from '../../src/ports/source-texts.js';

/**
 * The source store in memory, keyed by session and source: `passages` ranks
 * whole texts by the words they share with the query (Postgres's full-text
 * ranking is the real one, tested in test/store).
 */
export function memorySourceTexts(): SourceTexts & {
  kept: Map<string, SourceText>;
  failing: boolean;
  finds: number;
} {
  const kept = new Map<string, SourceText>();
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
  return {
    kept,
    failing: false,
    finds: 0,
    async keep(sessionId, source) {
      if (this.failing) throw new Error('database unavailable');
      kept.set(`${sessionId} ${source.key}`, source);
    },
    async find(sessionIds, key): Promise<StoredSourceText | null> {
      this.finds += 1;
      if (this.failing) throw new Error('database unavailable');
      for (const id of sessionIds) {
        const found = kept.get(`${id} ${key}`);
        if (found) return { ...found, fetchedAt: '2026-11-25T00:00:00.000Z', truncated: false };
      }
      return null;
    },
    async passages(sessionIds, text, limit, keyPrefix) {
      if (this.failing) throw new Error('database unavailable');
      const wanted = words(text);
      return [...kept.entries()]
        .filter(([id, s]) => sessionIds.includes(id.split(' ')[0]!) && s.key.startsWith(keyPrefix ?? ''))
        .map(([, s]) => ({
          key: s.key,
          title: s.title,
          ...(s.url ? { url: s.url } : {}),
          body: s.text,
          hits: [...words(s.text)].filter((w) => wanted.has(w)).length,
        }))
        .filter((p) => p.hits > 0)
        .sort((a, b) => b.hits - a.hits)
        .slice(0, limit)
        .map(({ hits: _, ...passage }) => passage);
    },
  };
}
