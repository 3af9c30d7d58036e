import { afterEach, describe, expect, it, vi } from 'vitest';
import { TerminalView } from '../../src/cli/terminal-view.js';
import { Capture } from '../helpers/io.js';

afterEach(() => {
  vi.useRealTimers();
});

function terminal() {
  return Object.assign(new Capture(), { isTTY: true, columns: 80 });
}

const planning = { type: 'phase', phase: 'plan' } as const;

describe('the live progress block', () => {
  it('counts only the time research runs, not the time spent at a prompt', () => {
    vi.useFakeTimers();
    const out = terminal();
    const view = new TerminalView(out);
    view.start();
    view.onEvent(planning);
    vi.advanceTimersByTime(5_000);
    expect(out.text).toContain('⏳ Planning · 0 sources · 5s');
    view.stop();
    // A minute at the plan review prompt.
    vi.advanceTimersByTime(60_000);
    view.start();
    vi.advanceTimersByTime(2_000);
    expect(out.text).toContain('⏳ Planning · 0 sources · 7s');
    expect(out.text).not.toContain('1m ');
    view.stop();
  });

  it('stays cleared once stopped, even when events arrive late', () => {
    vi.useFakeTimers();
    const out = terminal();
    const view = new TerminalView(out);
    view.start();
    view.onEvent(planning);
    vi.advanceTimersByTime(1_000);
    view.stop();
    const atStop = out.text.length;
    view.onEvent({ type: 'cycle', cycle: 1, maxCycles: 8 });
    vi.advanceTimersByTime(5_000);
    expect(out.text.slice(atStop)).not.toContain('⏳');
  });

  it('prints one line per event and no escape codes when plain (NO_COLOR), even in a terminal', () => {
    vi.useFakeTimers();
    const out = terminal();
    const view = new TerminalView(out, true);
    view.start();
    view.onEvent(planning);
    view.onEvent({ type: 'cycle', cycle: 1, maxCycles: 8 });
    vi.advanceTimersByTime(3_000);
    view.stop();
    expect(out.text).toBe('Cycle 1 of 8\n');
  });
});
