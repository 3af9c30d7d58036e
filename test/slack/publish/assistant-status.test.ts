import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { initialProgress } from '../../../src/ports/progress.js';
import { AssistantStatus, statusText } from '../../../src/slack/publish/assistant-status.js';

afterEach(() => vi.useRealTimers());

describe('the assistant-view status line', () => {
  it('says what the session is doing', () => {
    const p = initialProgress();
    expect(statusText({ ...p, phase: 'plan' })).toBe('is writing a research plan…');
    expect(
      statusText({
        ...p,
        phase: 'research',
        sources: 4,
        agents: [
          { id: '1.1', task: 'T', status: 'running', activity: { kind: 'searching', queries: ['tides'] } },
        ],
      }),
    ).toBe('is searching "tides" · 4 sources');
    expect(statusText({ ...p, phase: 'report' })).toBe('is writing the report…');
    expect(statusText({ ...p, phase: 'done' })).toBe('');
  });

  it('sends the latest text at most once per interval, and nothing after a refusal or close', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const status = new AssistantStatus(
      async (_c, _t, text) => {
        sent.push(text);
        if (text === 'refuse') throw new Error('not_an_assistant_thread');
      },
      { channel: 'D1', threadTs: '1.2' },
      silentLogger,
      1000,
    );
    status.show('a');
    await vi.advanceTimersByTimeAsync(0);
    status.show('b');
    status.show('c');
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['a', 'c']);
    status.show('refuse');
    await vi.advanceTimersByTimeAsync(1000);
    status.show('d');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual(['a', 'c', 'refuse']);
  });
});
