import { describe, expect, it } from 'vitest';
import { applySteering } from '../../../src/engine/phases/steering.js';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

describe('applySteering', () => {
  it('hands each note to the orchestrator once, across a resume from the checkpoint, and survives a store that fails', async () => {
    const notes = [
      { id: 3, text: 'Only Europe, please' },
      { id: 7, text: 'Stop after the next cycle' },
    ];
    let failing = true;
    const h = harness(new ScriptedLlm([]), {});
    h.deps.steering = async (after) => {
      if (failing) throw new Error('connection terminated');
      return notes.filter((n) => n.id > after);
    };
    const state = newSession('s-1', { question: 'q', skipClarification: true });
    const ctx = createContext(h.deps, testSettings(), state, new AbortController().signal, false);

    await applySteering(ctx);
    expect(state.history).toEqual([]);
    failing = false;
    await applySteering(ctx);
    expect(state.history.map((m) => m.content)).toEqual([
      expect.stringContaining('Only Europe, please'),
      expect.stringContaining('Stop after the next cycle'),
    ]);
    expect(state.history[0]!.role).toBe('user');
    expect(state.steeringSeen).toBe(7);
    expect(h.events.filter((e) => e.type === 'steering')).toHaveLength(2);

    // A resumed session starts from its checkpoint: nothing it already has is handed over again.
    const resumed = structuredClone(state);
    const again = createContext(h.deps, testSettings(), resumed, new AbortController().signal, false);
    await applySteering(again);
    expect(resumed.history).toHaveLength(2);
  });
});
