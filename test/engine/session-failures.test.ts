import { describe, expect, it } from 'vitest';
import { newSession } from '../../src/engine/run-session.js';
import { noteFailure, noteWorked, nothingResearched } from '../../src/engine/session-failures.js';

const state = () => newSession('s-1', { question: 'Q?' });

describe('nothingResearched', () => {
  it('is null when nothing failed (the research simply found nothing)', () => {
    expect(nothingResearched(state())).toBeNull();
  });

  it('names a dependency that failed every time, with its last cause', () => {
    const s = state();
    noteFailure(s, 'web search', 'timed out');
    noteFailure(s, 'web search', 'ECONNREFUSED');
    expect(nothingResearched(s)?.message).toBe(
      'Web search failed every time it was tried (ECONNREFUSED), so nothing could be researched: check the search provider (SEARCH_PROVIDER and its key or URL) and try again.',
    );
  });

  it('is null for a dependency that answered once, before or after failing', () => {
    const before = state();
    noteWorked(before, 'knowledge base');
    noteFailure(before, 'knowledge base', 'ECONNRESET');
    const after = state();
    noteFailure(after, 'knowledge base', 'ECONNRESET');
    noteWorked(after, 'knowledge base');
    expect(nothingResearched(before)).toBeNull();
    expect(nothingResearched(after)).toBeNull();
  });

  it('names both search dependencies when neither ever worked', () => {
    const s = state();
    noteFailure(s, 'web search', 'HTTP 401');
    noteFailure(s, 'knowledge base', 'ECONNREFUSED');
    expect(nothingResearched(s)?.message).toMatch(
      /^Web search \(HTTP 401\) and the knowledge base \(ECONNREFUSED\) failed every time they were tried/,
    );
  });

  it('is null once any source was found', () => {
    const s = state();
    noteFailure(s, 'web search', 'ECONNREFUSED');
    s.sources.push({
      n: 1,
      kind: 'web',
      key: 'https://a.example/',
      url: 'https://a.example/',
      title: 'A',
      snippet: '',
    });
    expect(nothingResearched(s)).toBeNull();
  });
});
