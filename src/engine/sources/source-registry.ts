import { plainMarkup } from '../../ports/plain-markup.js';
import type { Source } from '../session-state.js';

export type SourceCandidate = Omit<Source, 'n'>;

export interface SourceRegistry {
  /** The source's session-wide number: existing for a known key, the next one otherwise. */
  add(candidate: SourceCandidate): Source;
  get(n: number): Source | undefined;
  byKey(key: string): Source | undefined;
}

/**
 * One numbering for the whole session, so an agent's `[12]` means the same
 * page everywhere and nothing has to be renumbered until the final report.
 * Works on the state's own array, so checkpoints carry it.
 */
export function createSourceRegistry(sources: Source[], onAdd: (source: Source) => void): SourceRegistry {
  const index = new Map(sources.map((s) => [s.key, s]));
  return {
    add(candidate) {
      // Titles and authors are what pages, files and tools say they are: repeated in Slack, they ping no one.
      candidate = {
        ...candidate,
        title: plainMarkup(candidate.title),
        ...(candidate.author ? { author: plainMarkup(candidate.author) } : {}),
      };
      const known = index.get(candidate.key);
      if (known) {
        // A page read after it was found by search keeps its number but gains what reading learned.
        if (!known.title && candidate.title) known.title = candidate.title;
        known.author ??= candidate.author;
        known.publishedAt ??= candidate.publishedAt;
        return known;
      }
      const source: Source = { ...candidate, n: sources.length + 1 };
      sources.push(source);
      index.set(source.key, source);
      onAdd(source);
      return source;
    },
    get: (n) => sources[n - 1],
    byKey: (key) => index.get(key),
  };
}
