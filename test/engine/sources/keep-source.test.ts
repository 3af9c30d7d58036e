import { describe, expect, it } from 'vitest';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import { runOpenUrl } from '../../../src/engine/tools/open-url-tool.js';
import type { SourceTexts } from '../../../src/ports/source-texts.js';
import { fakePageReader } from '../../fakes/fake-tools.js';
import { memorySourceTexts as memoryTexts } from '../../fakes/memory-source-texts.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

const URL = 'https://a.example/tides';
const TEXT = 'Spring tides happen at new and full moon, when the sun and the moon pull together on the sea.';

function context(
  texts: SourceTexts,
  reader = fakePageReader({ [URL]: { url: URL, title: 'Tides', text: TEXT } }),
) {
  const h = harness(new ScriptedLlm([]), { pageReader: reader });
  const state = newSession('s-1', { question: 'Tides?' });
  const ctx = createContext(
    { ...h.deps, sourceTexts: texts },
    testSettings(),
    state,
    new AbortController().signal,
    false,
  );
  return { ctx, reader };
}

describe('the text of what research reads is kept with the session', () => {
  it('keeps a page an agent read, and serves it from the store when the resumed session reads it again', async () => {
    const texts = memoryTexts();
    const first = context(texts);
    const read = await runOpenUrl(first.ctx, [URL], Date.now() + 10_000);
    expect(read.shown).toEqual([1]);
    expect(texts.kept.get(`s-1 ${URL}`)).toMatchObject({ n: 1, title: 'Tides', text: TEXT });
    // A page this session never read is fetched without asking the store first.
    expect(texts.finds).toBe(0);

    // The same session after a restart: its in-memory cache is gone, the page is not fetched again.
    const resumed = context(texts);
    resumed.ctx.state.readUrls.push(URL);
    const again = await runOpenUrl(resumed.ctx, [URL], Date.now() + 10_000);
    expect(again.content).toContain('Spring tides happen at new and full moon');
    expect(resumed.reader.reads).toEqual([]);
  });

  it('goes on researching when the store cannot be reached', async () => {
    const texts = memoryTexts();
    texts.failing = true;
    const { ctx, reader } = context(texts);
    const read = await runOpenUrl(ctx, [URL], Date.now() + 10_000);
    expect(read.shown).toEqual([1]);
    expect(read.content).toContain('Spring tides');
    expect(reader.reads).toEqual([URL]);
  });
});
