import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/ports/logger.js';
import { initialProgress, type Progress, reduceProgress } from '../../../src/ports/progress.js';
import { SlackCallError, SlackRateLimited } from '../../../src/slack/api/slack-errors.js';
import { ProgressStreamer } from '../../../src/slack/publish/progress-streamer.js';
import type { StreamChunk } from '../../../src/slack/render/progress-chunks.js';

const target = { channel: 'C1', ts: '1.0', sessionId: 's' };
const started = (n: number): Progress =>
  Array.from({ length: n }, (_, i) => i).reduce(
    (p, i) => reduceProgress(p, { type: 'agent_started', agentId: `a${i}`, task: `Task ${i}` }),
    reduceProgress(initialProgress(), { type: 'phase', phase: 'research' }),
  );

describe('ProgressStreamer', () => {
  it('sends one append per burst with only what changed since Slack last took one', async () => {
    const appends: StreamChunk[][] = [];
    const streamer = new ProgressStreamer(
      target,
      async (_c, _t, chunks) => void appends.push(chunks),
      () => {},
      silentLogger,
      Date.now,
      30,
    );
    let progress = started(2);
    streamer.push(progress);
    progress = reduceProgress(progress, {
      type: 'agent_activity',
      agentId: 'a0',
      activity: { kind: 'thinking' },
    });
    streamer.push(progress);
    await vi.waitFor(() => expect(appends).toHaveLength(1));
    expect(appends[0]!.map((c) => c.type)).toEqual(['plan_update', 'task_update', 'task_update']);

    progress = reduceProgress(progress, { type: 'agent_done', agentId: 'a1', sources: 3 });
    streamer.push(progress);
    await vi.waitFor(() => expect(appends).toHaveLength(2));
    expect(appends[1]).toEqual([
      { type: 'task_update', id: 'a1', title: 'Task 1', status: 'complete', output: '3 sources' },
    ]);
    streamer.push(progress);
    await new Promise((r) => setTimeout(r, 100));
    expect(appends).toHaveLength(2);
    streamer.close();
  });

  it('keeps the state of an append Slack did not take for the next, and hands over when the stream has ended', async () => {
    const appends: StreamChunk[][] = [];
    const failures = [new SlackRateLimited(20), new Error('socket hang up')];
    let ended: string | undefined;
    const streamer = new ProgressStreamer(
      target,
      async (_c, _t, chunks) => {
        const failure = failures.shift();
        if (failure) throw failure;
        appends.push(chunks);
        if (appends.length === 1)
          throw new SlackCallError('message_not_in_streaming_state', 'chat.appendStream');
      },
      (code) => {
        ended = code;
      },
      silentLogger,
      Date.now,
      10,
    );
    streamer.push(started(1));
    await vi.waitFor(() => expect(ended).toBe('message_not_in_streaming_state'));
    expect(appends).toHaveLength(1);
    expect(appends[0]!.length).toBe(2);
    streamer.push(started(2));
    await new Promise((r) => setTimeout(r, 60));
    expect(appends).toHaveLength(1);
  });
});
