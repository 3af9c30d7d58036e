import { describe, expect, it } from 'vitest';
import { continueResearch, newSession } from '../../src/engine/run-session.js';
import { createContext } from '../../src/engine/session-context.js';
import { runOpenUrl } from '../../src/engine/tools/open-url-tool.js';
import { fakePageReader } from '../fakes/fake-tools.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { harness, testSettings } from '../helpers/engine-harness.js';

const page = (url: string, title: string) => ({
  url,
  title,
  text: `${title}. ${'Long enough text about tides. '.repeat(20)}`,
});

describe('continueResearch', () => {
  it('starts a new version from the final state with a fresh allowance, and never fetches a page read before', async () => {
    const finished = newSession('s-1', { question: 'Tides?' });
    Object.assign(finished, {
      phase: 'done',
      cycle: 3,
      toolCalls: 12,
      startedAt: 1000,
      readUrls: ['https://a.example/tides'],
      report: { markdown: 'x', sources: [], partial: null, durationMs: 1, sourcesSeen: 0, costUsd: null },
    });
    finished.usage.webSearches = 5;
    const next = continueResearch(finished, 's-2');
    expect(next).toMatchObject({
      sessionId: 's-2',
      phase: 'research',
      startedAt: null,
      reportVersion: 2,
      cycleBase: 3,
      cycle: 3,
      toolCalls: 0,
      report: null,
      earlierReads: ['https://a.example/tides'],
      // Its sources' kept texts are found where the earlier version kept them.
      earlierSessions: ['s-1'],
    });
    expect(next.usage.webSearches).toBe(0);
    expect(finished.sessionId).toBe('s-1');

    const reader = fakePageReader({
      'https://a.example/tides': page('https://a.example/tides', 'Tides'),
      'https://b.example/moon': page('https://b.example/moon', 'Moon'),
    });
    const h = harness(new ScriptedLlm([]), { pageReader: reader });
    const ctx = createContext(h.deps, testSettings(), next, new AbortController().signal, false);
    const outcome = await runOpenUrl(
      ctx,
      ['https://a.example/tides', 'https://b.example/moon'],
      Date.now() + 60_000,
    );
    expect(reader.reads).toEqual(['https://b.example/moon']);
    expect(outcome.content).toContain('already read by an earlier version of this research');
  });
});
