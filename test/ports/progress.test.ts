import { describe, expect, it } from 'vitest';
import { statusLines } from '../../src/cli/terminal-view.js';
import { initialProgress, reduceProgress } from '../../src/ports/progress.js';
import type { ResearchEvent } from '../../src/ports/research.js';
import { progressMessage } from '../../src/slack/render/messages.js';
import { planTitle } from '../../src/slack/render/progress-chunks.js';

const fold = (events: ResearchEvent[]) => events.reduce(reduceProgress, initialProgress());

describe('progress of the checks', () => {
  it('shows what a check is doing in the thread, the task cards and the terminal, until the phase changes', () => {
    const checking = fold([
      { type: 'phase', phase: 'research' },
      { type: 'cycle', cycle: 2, maxCycles: 8 },
      { type: 'checking', text: 'Plan check: one step is thin, researching it one more cycle' },
    ]);
    expect(JSON.stringify(progressMessage(checking, 65_000, 's-1'))).toContain(
      ':mag: Plan check: one step is thin, researching it one more cycle',
    );
    expect(planTitle(checking)).toBe(
      'Plan check: one step is thin, researching it one more cycle · 0 sources',
    );
    expect(statusLines(checking, 65_000)).toContain(
      '  🔎 Plan check: one step is thin, researching it one more cycle',
    );

    const writing = reduceProgress(checking, { type: 'phase', phase: 'report' });
    expect(writing.checking).toBeUndefined();
    expect(planTitle(writing)).toBe('Writing the report · 0 sources');
    const citations = reduceProgress(writing, {
      type: 'checking',
      text: 'Checking 12 citations against their sources',
    });
    expect(planTitle(citations)).toBe('Checking 12 citations against their sources · 0 sources');
    // The finished summary does not keep it.
    expect(
      JSON.stringify(progressMessage(citations, 70_000, 's-1', { kind: 'done' } as never)),
    ).not.toContain(':mag:');
  });
});
