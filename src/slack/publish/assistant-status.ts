import type { Logger } from '../../ports/logger.js';
import { describeActivity, type Progress } from '../../ports/progress.js';

/** Sets an assistant-view thread's status line ("is searching …"); empty clears it. */
export type SetStatus = (channel: string, threadTs: string, status: string) => Promise<void>;

/** What the assistant view says the app is doing, from the live progress. */
export function statusText(progress: Progress): string {
  switch (progress.phase) {
    case 'clarify':
    case 'plan':
      return 'is writing a research plan…';
    case 'research': {
      const running = progress.agents.filter((a) => a.status === 'running');
      const latest = running.at(-1);
      const what = latest ? describeActivity(latest.activity) : 'planning the next step';
      const tail = progress.sources ? ` · ${progress.sources} sources` : '';
      return `is ${what.length > 80 ? `${what.slice(0, 79)}…` : what}${tail}`;
    }
    case 'report':
      return 'is writing the report…';
    default:
      return '';
  }
}

/**
 * The status line of one session's thread in the assistant view: the latest
 * text wins, at most one call every `minIntervalMs`; a thread that refuses it
 * (not an assistant thread, no scope) is left alone after the first refusal.
 */
export class AssistantStatus {
  private shown = '';
  private wanted = '';
  private lastAt = 0;
  private timer?: NodeJS.Timeout;
  private off = false;

  constructor(
    private readonly set: SetStatus,
    private readonly place: { channel: string; threadTs: string },
    private readonly log: Logger,
    private readonly minIntervalMs = 3000,
  ) {}

  show(text: string): void {
    if (this.off) return;
    this.wanted = text;
    if (this.timer || text === this.shown) return;
    const wait = Math.max(0, this.lastAt + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => this.send(), wait);
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.off = true;
  }

  private send(): void {
    this.timer = undefined;
    const text = this.wanted;
    if (this.off || text === this.shown) return;
    this.shown = text;
    this.lastAt = Date.now();
    this.set(this.place.channel, this.place.threadTs, text).catch((err) => {
      this.off = true;
      this.log.info(
        { err, channel: this.place.channel },
        'the thread takes no assistant status; not setting it again',
      );
    });
  }
}
