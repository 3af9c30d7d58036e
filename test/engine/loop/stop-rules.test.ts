import { describe, expect, it } from 'vitest';
import { firstStop, type LoopView, stopWhen } from '../../../src/engine/loop/stop-rules.js';
import { newSession } from '../../../src/engine/run-session.js';
import { createContext } from '../../../src/engine/session-context.js';
import { addModelUsage } from '../../../src/ports/usage.js';
import { ScriptedLlm } from '../../fakes/scripted-llm.js';
import { harness, testSettings } from '../../helpers/engine-harness.js';

function context(settings = testSettings()) {
  const cancel = new AbortController();
  const ctx = createContext(
    harness(new ScriptedLlm([]), {}).deps,
    settings,
    newSession('s-1', { question: 'Q?' }),
    cancel.signal,
    false,
  );
  return { ctx, cancel };
}
const loop = (over: Partial<LoopView> = {}): LoopView => ({ cycle: 0, turn: 0, calls: [], ...over });
const call = (name: string) => ({ id: 'c', name, arguments: '{}' });

describe('stop rules', () => {
  it('cancelled: once the session is cancelled', () => {
    const { ctx, cancel } = context();
    expect(stopWhen.cancelled()(ctx, loop())).toBeNull();
    cancel.abort();
    expect(stopWhen.cancelled()(ctx, loop())).toBe('cancelled');
  });

  it('cycles and turns: at the maximum, not before', () => {
    const { ctx } = context();
    expect(stopWhen.cycles(3)(ctx, loop({ cycle: 2 }))).toBeNull();
    expect(stopWhen.cycles(3)(ctx, loop({ cycle: 3 }))).toBe('max_cycles');
    expect(stopWhen.turns(5)(ctx, loop({ turn: 4 }))).toBeNull();
    expect(stopWhen.turns(5)(ctx, loop({ turn: 5 }))).toBe('max_turns');
  });

  it('deadline: once the clock reaches it', () => {
    const { ctx } = context();
    expect(stopWhen.deadline(Date.now() + 60_000)(ctx, loop())).toBeNull();
    expect(stopWhen.deadline(Date.now() - 1)(ctx, loop())).toBe('time_budget');
  });

  it('token and tool-call budgets: once spent', () => {
    const { ctx } = context(testSettings({ tokenBudget: 100, toolCallBudget: 2 }));
    expect(stopWhen.tokenBudget()(ctx, loop())).toBeNull();
    addModelUsage(ctx.state.usage, 'agent', 'm', { inputTokens: 90, outputTokens: 10 });
    expect(stopWhen.tokenBudget()(ctx, loop())).toBe('token_budget');
    ctx.state.toolCalls = 1;
    expect(stopWhen.toolCallBudget()(ctx, loop())).toBeNull();
    ctx.state.toolCalls = 2;
    expect(stopWhen.toolCallBudget()(ctx, loop())).toBe('tool_call_budget');
  });

  it('toolCalled: when the latest turn called that tool', () => {
    const { ctx } = context();
    const rule = stopWhen.toolCalled('generate_report');
    expect(rule(ctx, loop({ calls: [call('web_search')] }))).toBeNull();
    expect(rule(ctx, loop({ calls: [call('web_search'), call('generate_report')] }))).toBe('tool_called');
  });

  it('after a model turn: cut short (a cancel, or the deadline as the time budget), failed, or a text answer when there is enough', () => {
    const { ctx } = context();
    const turned = (step: LoopView['step']) => loop({ step });
    expect(stopWhen.interrupted()(ctx, turned({ kind: 'interrupted', why: 'cancelled' }))).toBe('cancelled');
    expect(stopWhen.interrupted()(ctx, turned({ kind: 'interrupted', why: 'deadline' }))).toBe('time_budget');
    expect(stopWhen.interrupted()(ctx, turned({ kind: 'calls', calls: [] }))).toBeNull();
    expect(stopWhen.modelFailed()(ctx, turned({ kind: 'failed', error: new Error('x') }))).toBe(
      'model_failed',
    );
    expect(stopWhen.modelFailed()(ctx, turned({ kind: 'text', nudge: [] }))).toBeNull();
    let enough = false;
    const answered = stopWhen.answeredInText(() => enough);
    expect(answered(ctx, turned({ kind: 'text', nudge: [] }))).toBeNull();
    enough = true;
    expect(answered(ctx, turned({ kind: 'text', nudge: [] }))).toBe('answered');
    expect(answered(ctx, turned({ kind: 'calls', calls: [] }))).toBeNull();
  });

  it('invalidTurns: once that many turns in a row had every call refused', () => {
    const { ctx } = context();
    expect(stopWhen.invalidTurns(3)(ctx, loop({ invalidTurns: 2 }))).toBeNull();
    expect(stopWhen.invalidTurns(3)(ctx, loop({ invalidTurns: 3 }))).toBe('invalid_calls');
    expect(stopWhen.invalidTurns(3)(ctx, loop())).toBeNull();
  });

  it('firstStop: the first rule that says stop, in the order given, or null', () => {
    const { ctx, cancel } = context();
    const rules = [stopWhen.cancelled(), stopWhen.cycles(1)];
    expect(firstStop(rules, ctx, loop())).toBeNull();
    expect(firstStop(rules, ctx, loop({ cycle: 1 }))).toBe('max_cycles');
    cancel.abort();
    expect(firstStop(rules, ctx, loop({ cycle: 1 }))).toBe('cancelled');
  });
});
