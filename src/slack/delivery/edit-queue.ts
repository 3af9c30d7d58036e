import type { SlackMessage } from '../render/messages.js';

export interface EditTarget {
  team: string;
  channel: string;
  ts: string;
  /** For logs only. */
  sessionId: string;
}

/** One message's edits: the latest content, the version sent, and who waits on which version. */
export interface MessageState {
  target: EditTarget;
  latest: SlackMessage;
  version: number;
  sent: number;
  inFlight: boolean;
  lastSentAt: number;
  waitingSince: number;
  /** The last state of a finished session: sent before any live refresh. */
  final: boolean;
  /** The session's live view closed while an edit was on its way: drop this state when Slack answers. */
  forgotten?: boolean;
  waiters: (() => void)[];
  /** Callers of `deliver`, told how the version they gave (or a newer one) fared. */
  outcomes: { version: number; resolve: () => void; reject: (error: unknown) => void }[];
}

export interface TeamState {
  messages: Map<string, MessageState>;
  /**
   * The edits of the last window. Each counts from when it was sent until its
   * answer came back (whichever is later), because Slack counts it somewhere
   * in between: a slow answer must not let the next window overlap Slack's.
   */
  window: { at: number }[];
  pausedUntil: number;
  timer?: NodeJS.Timeout;
  timerAt: number;
}

/**
 * The message of a workspace to edit next: finals first, then whoever has
 * waited longest, among those not in flight, with something new, and past
 * their own interval; else when the earliest of them will be.
 */
export function nextDue(
  team: TeamState,
  now: number,
  minIntervalMs: number,
): { next?: MessageState; earliest: number } {
  let next: MessageState | undefined;
  let earliest = Number.POSITIVE_INFINITY;
  for (const state of team.messages.values()) {
    if (state.inFlight || state.sent === state.version) continue;
    const due = state.lastSentAt + minIntervalMs;
    if (due > now) earliest = Math.min(earliest, due);
    else if (!next || ahead(state, next)) next = state;
  }
  return { next, earliest };
}

export function key(target: EditTarget): string {
  return `${target.channel}:${target.ts}`;
}

export function settle(
  state: MessageState,
  version: number,
  tell: (o: MessageState['outcomes'][number]) => void,
) {
  const due = state.outcomes.filter((o) => o.version <= version);
  state.outcomes = state.outcomes.filter((o) => o.version > version);
  for (const o of due) tell(o);
}

/** Finals first, then whoever has waited longest. */
function ahead(a: MessageState, b: MessageState): boolean {
  if (a.final !== b.final) return a.final;
  return a.waitingSince < b.waitingSince;
}
