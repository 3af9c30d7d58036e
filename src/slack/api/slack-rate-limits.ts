import { sleep } from '../../http/retry-delay.js';

/** A token bucket: `burst` calls at once, then one every `everyMs`. */
interface Rate {
  burst: number;
  everyMs: number;
}

/**
 * Slack's published limits for the writes we make, kept a little under so our
 * own traffic never earns a 429 (reference/slack.md §5). `chat.postMessage` is
 * limited per channel ("about one message per second, short bursts"); the
 * others per workspace (one bot token is one workspace). `chat.update` has its
 * own scheduler (EditScheduler), which coalesces as well as limits.
 */
const RATES: Record<string, Rate & { perChannel?: boolean }> = {
  'chat.postMessage': { burst: 3, everyMs: 1100, perChannel: true },
  // Tier 3 (50+ a minute)
  'chat.delete': { burst: 5, everyMs: 1300 },
  'reactions.add': { burst: 5, everyMs: 1300 },
  conversations: { burst: 3, everyMs: 1300 },
  // assistant.threads.setSuggestedPrompts / setStatus, and agents.sessions.setStatus / rename
  assistant: { burst: 5, everyMs: 1300 },
  agents: { burst: 5, everyMs: 1300 },
  // Tier 2 (20+ a minute); canvases.create is Tier 2, and its share and delete go with it
  'reactions.remove': { burst: 3, everyMs: 3100 },
  canvases: { burst: 3, everyMs: 3100 },
  // Streams: starting and stopping are Tier 2; appends are frequent by design (each session's own are
  // coalesced to one every 2 s), kept under Tier 4 for the workspace.
  'chat.startStream': { burst: 3, everyMs: 3100 },
  'chat.stopStream': { burst: 3, everyMs: 3100 },
  'chat.appendStream': { burst: 10, everyMs: 650 },
  // Tier 4 (100+ a minute), each step of a files v2 upload on its own
  'files.getUploadURLExternal': { burst: 10, everyMs: 650 },
  'files.completeUploadExternal': { burst: 10, everyMs: 650 },
};

interface Bucket {
  tokens: number;
  at: number;
  pausedUntil: number;
}

/**
 * The process's Slack budget, shared by the listeners and the delivery
 * dispatcher. With several processes on one workspace each keeps its own, as
 * with SLACK_UPDATES_PER_MINUTE.
 */
export class SlackRateLimits {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes a call's token if one is free; otherwise how long until one is (nothing is taken). */
  tryTake(method: string, channel?: string): number {
    const wait = this.wouldWait(method, channel);
    if (wait === 0) {
      const found = this.bucket(method, channel);
      if (found) found.bucket.tokens -= 1;
    }
    return wait;
  }

  /** How long a call would wait for its token now (nothing is taken). */
  wouldWait(method: string, channel?: string): number {
    const found = this.bucket(method, channel);
    if (!found) return 0;
    const { bucket, rate } = found;
    const now = this.now();
    if (now < bucket.pausedUntil) return bucket.pausedUntil - now;
    const refill = Math.floor((now - bucket.at) / rate.everyMs);
    if (refill > 0) {
      bucket.tokens = Math.min(rate.burst, bucket.tokens + refill);
      bucket.at = bucket.tokens === rate.burst ? now : bucket.at + refill * rate.everyMs;
    }
    return bucket.tokens > 0 ? 0 : bucket.at + rate.everyMs - now;
  }

  /** Tokens free now (0 while paused); nothing is taken. */
  available(method: string, channel?: string): number {
    const found = this.bucket(method, channel);
    if (!found) return Number.POSITIVE_INFINITY;
    return this.wouldWait(method, channel) > 0 ? 0 : found.bucket.tokens;
  }

  /** Waits for a token. */
  async take(method: string, channel?: string): Promise<void> {
    for (let wait = this.tryTake(method, channel); wait > 0; wait = this.tryTake(method, channel)) {
      await sleep(wait);
    }
  }

  /** Slack said 429: nothing more of this kind until Retry-After has passed. */
  pause(method: string, channel: string | undefined, ms: number): void {
    const found = this.bucket(method, channel);
    if (found) found.bucket.pausedUntil = Math.max(found.bucket.pausedUntil, this.now() + ms);
  }

  private bucket(method: string, channel?: string): { bucket: Bucket; rate: Rate } | undefined {
    // A method's own limit, else its family's (conversations.*).
    const family = RATES[method] ? method : method.split('.')[0]!;
    const rate = RATES[family];
    if (!rate) return undefined;
    const key = rate.perChannel ? `${family}:${channel ?? ''}` : family;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: rate.burst, at: this.now(), pausedUntil: 0 };
      this.buckets.set(key, bucket);
    }
    return { bucket, rate };
  }
}
