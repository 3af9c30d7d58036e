import { afterEach, describe, expect, it } from 'vitest';
import { newSession, runSession } from '../../src/engine/run-session.js';
import type { SessionState } from '../../src/engine/session-state.js';
import { countTokens } from '../../src/llm/count-tokens.js';
import { OpenAiLlm } from '../../src/llm/openai-llm.js';
import { silentLogger } from '../../src/ports/logger.js';
import { fakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { ScriptedLlm } from '../fakes/scripted-llm.js';
import { harness, run, testSettings } from '../helpers/engine-harness.js';
import { corpusTools, standardScript } from '../helpers/scenario.js';

const QUESTION = { question: 'How do heat pumps compare with gas boilers?' };
const gpt55 = { name: 'gpt-5.5', reasoning: true };
/** The settings of a process on today's OpenAI (the first run's model is the scripts' own). */
const onGpt55 = () => testSettings({ models: { orchestrator: gpt55, agent: gpt55, report: gpt55 } });
const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The real adapter on a fake server answering with `llm`: Chat Completions only, or as OpenAI today. */
async function adapterOn(llm: ScriptedLlm, openai: boolean) {
  const server = await fakeOpenAiServer(llm, { openai });
  servers.push(server);
  const adapter = new OpenAiLlm({
    apiKey: 'sk-test',
    baseURL: server.baseUrl,
    maxRetries: 0,
    logger: silentLogger,
    countTokens,
  });
  return { adapter, server };
}

describe('a session checkpointed on Chat Completions', () => {
  it('resumes on the Responses API with the same report, its earlier turns sent as call items', async () => {
    const whole = new ScriptedLlm(standardScript());
    const uninterrupted = await run(harness(whole, corpusTools()), testSettings(), QUESTION);

    // The first run: a server with Chat Completions only, stopped after cycle 1.
    const stop = new AbortController();
    const first = new ScriptedLlm(
      standardScript().map((l) =>
        l.name.startsWith('agent T3') || l.name === 'report' ? { ...l, steps: [] } : l,
      ),
    );
    const chat = await adapterOn(first, false);
    const firstHarness = harness(first, corpusTools(), (state) => {
      if (state.phase === 'research' && state.cycle === 1) stop.abort();
    });
    const stopped = await runSession(
      { ...firstHarness.deps, llm: chat.adapter },
      testSettings(),
      newSession('s-1', { skipClarification: true, ...QUESTION }),
      { signal: stop.signal },
    );
    expect(stopped.kind).toBe('cancelled');
    expect(new Set(chat.server.calls.map((c) => c.api))).toEqual(new Set(['chat-completions']));
    // Stored as the engine's history, with no wire of its own (and no reasoning: Chat Completions has none).
    const checkpoint: SessionState = JSON.parse(JSON.stringify(firstHarness.checkpoints.at(-1)!));
    expect(checkpoint.cycle).toBe(1);
    expect(JSON.stringify(checkpoint)).not.toContain('"reasoning":[');

    // Resumed by a process whose server is OpenAI's today: the Responses API.
    const second = new ScriptedLlm(standardScript(2));
    const responses = await adapterOn(second, true);
    const resumed = await runSession(
      { ...harness(second, corpusTools()).deps, llm: responses.adapter },
      onGpt55(),
      checkpoint,
    );
    second.assertDone();
    expect(resumed.kind).toBe('done');
    if (resumed.kind !== 'done' || uninterrupted.kind !== 'done') return;
    expect(resumed.report.markdown).toBe(uninterrupted.report.markdown);
    expect(responses.server.calls.every((c) => c.api === 'responses' && !c.refused)).toBe(true);
    // The orchestrator's first resumed turn carries cycle 1 from the checkpoint (no reasoning to carry);
    // its later turns carry the reasoning the Responses API sealed for them.
    const orchestrator = responses.server.calls.filter((c) => c.purpose === 'orchestrator');
    expect(orchestrator[0]).toMatchObject({ earlierTurns: 1, turnsWithoutReasoning: 1 });
    const later = orchestrator.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const call of later) expect(call.turnsWithoutReasoning).toBe(1);
  });
});
