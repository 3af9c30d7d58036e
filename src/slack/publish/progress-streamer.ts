import type { Logger } from '../../ports/logger.js';
import type { Progress } from '../../ports/progress.js';
import { SlackCallError, SlackRateLimited } from '../api/slack-errors.js';
import { type StreamChunk, startChunks } from '../render/progress-chunks.js';

export type AppendStream = (channel: string, ts: string, chunks: StreamChunk[]) => Promise<void>;

/** One append per burst of agent events: Slack's streams are for updates, not a call per token. */
export const APPEND_INTERVAL_MS = 2000;

/**
 * Keeps a session's streamed progress message current: each push is the
 * whole progress, and what changed since the last append Slack took (the plan
 * title, a task's status, step or pages) goes out as one append, at most every
 * `intervalMs`. Appends go straight to Slack, not through the outbox: each
 * task update carries the task's whole state, so a lost one is repaired by the
 * next. When Slack will not take appends any more (the stream ended), the
 * session falls back to edits through `onEnded`.
 */
export class ProgressStreamer {
  private readonly sent = new Map<string, string>();
  private pending?: Progress;
  private timer?: NodeJS.Timeout;
  private inFlight = false;
  private lastAt = 0;
  private closed = false;
  private warned = false;

  constructor(
    private readonly target: { channel: string; ts: string; sessionId: string },
    private readonly append: AppendStream,
    private readonly onEnded: (code: string) => void,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly intervalMs = APPEND_INTERVAL_MS,
  ) {}

  push(progress: Progress): void {
    if (this.closed) return;
    this.pending = progress;
    this.schedule(0);
  }

  /** The outcome is recorded (its stop goes through the outbox): nothing more is appended. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(extraMs: number): void {
    if (this.timer || this.inFlight || this.closed || !this.pending) return;
    const wait = Math.max(extraMs, this.lastAt + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const progress = this.pending;
    this.pending = undefined;
    if (!progress || this.closed) return;
    const changed = startChunks(progress).filter((c) => this.sent.get(keyOf(c)) !== JSON.stringify(c));
    if (changed.length === 0) return;
    this.inFlight = true;
    let retryInMs = 0;
    try {
      await this.append(this.target.channel, this.target.ts, changed);
      for (const chunk of changed) this.sent.set(keyOf(chunk), JSON.stringify(chunk));
    } catch (error) {
      if (error instanceof SlackCallError && error.code !== 'ratelimited') {
        this.closed = true;
        this.onEnded(error.code);
        return;
      }
      // Busy or unreachable for now: the next append carries the same state.
      this.pending ??= progress;
      retryInMs = error instanceof SlackRateLimited ? error.retryAfterMs : this.intervalMs;
      if (!this.warned)
        this.log.warn({ err: error, sessionId: this.target.sessionId }, 'progress append failed; retrying');
      this.warned = true;
    } finally {
      this.inFlight = false;
      this.lastAt = this.now();
    }
    this.schedule(retryInMs);
  }
}

function keyOf(chunk: StreamChunk): string {
  return chunk.type === 'task_update' ? `task:${chunk.id}` : chunk.type;
}
