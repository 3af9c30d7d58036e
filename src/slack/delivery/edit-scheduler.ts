import type { Logger } from '../../ports/logger.js';
import { SlackRateLimited } from '../api/slack-errors.js';
import type { SlackMessage } from '../render/messages.js';
import { type EditTarget, key, type MessageState, nextDue, settle, type TeamState } from './edit-queue.js';

export type { EditTarget };

export type SendEdit = (target: EditTarget, message: SlackMessage) => Promise<void>;

export interface EditSchedulerOptions {
  /** At most one edit per message this often (Slack's guidance for progress messages: 3 s). */
  minIntervalMs: number;
  /** chat.update calls per workspace per minute, shared by every session (Tier 3 is about 50). */
  perMinute: number;
  /** The budget's window; a minute, shorter only in tests. */
  windowMs?: number;
  logger: Logger;
  now?: () => number;
}

/**
 * Coalesces message edits: only the latest content of a message is ever
 * sent, at most once per `minIntervalMs` per message and `perMinute` per
 * workspace across all sessions. A 429 pauses that workspace's edits for
 * Retry-After and the newest content goes out afterwards; nothing else waits.
 */
export class EditScheduler {
  private readonly teams = new Map<string, TeamState>();
  private readonly now: () => number;
  private stopped = false;
  /** Edits sent, and 429s received: for tests and benchmarks. */
  readonly stats = { sent: 0, rateLimited: 0, failed: 0 };

  constructor(
    private readonly send: SendEdit,
    private readonly options: EditSchedulerOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Replaces whatever was waiting for this message with `message`. A `final`
   * edit (a session's last state) goes before live refreshes, so finished
   * sessions are never starved by running ones when the budget is short.
   */
  update(target: EditTarget, message: SlackMessage, options: { final?: boolean } = {}): void {
    const team = this.team(target.team);
    let state = team.messages.get(key(target));
    if (!state) {
      state = {
        target,
        latest: message,
        version: 0,
        sent: 0,
        inFlight: false,
        lastSentAt: 0,
        waitingSince: 0,
        final: false,
        waiters: [],
        outcomes: [],
      };
      team.messages.set(key(target), state);
    }
    if (state.sent === state.version) state.waitingSince = this.now();
    state.latest = message;
    state.version += 1;
    state.final = Boolean(options.final);
    state.forgotten = false;
    this.pump(target.team);
  }

  /**
   * A durable edit (from the outbox): sent as a final, and the promise says
   * whether Slack took it (or a newer version); 429s are waited out here, any
   * other refusal rejects with Slack's error.
   */
  deliver(target: EditTarget, message: SlackMessage): Promise<void> {
    this.update(target, message, { final: true });
    const state = this.teams.get(target.team)!.messages.get(key(target))!;
    return new Promise((resolve, reject) => state.outcomes.push({ version: state.version, resolve, reject }));
  }

  /**
   * Resolves once the latest content of this message has been delivered (or
   * given up on), or after `timeoutMs` however long Slack keeps saying 429.
   */
  flush(target: EditTarget, timeoutMs = 120_000): Promise<void> {
    const state = this.teams.get(target.team)?.messages.get(`${target.channel}:${target.ts}`);
    if (!state || (state.sent === state.version && !state.inFlight)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      state.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * A session's live view is closed: drop the state of its messages that no
   * durable edit is waiting on (a pending live refresh is superseded by the
   * outcome's edits from the outbox), so a process that runs thousands of
   * sessions keeps no state for finished ones.
   */
  forget(sessionId: string): void {
    for (const team of this.teams.values()) {
      for (const [k, state] of team.messages) {
        if (state.target.sessionId !== sessionId || state.outcomes.length) continue;
        // One on its way is dropped when Slack answers (a final state is forgotten once sent).
        if (state.inFlight) {
          state.forgotten = true;
          continue;
        }
        for (const resolve of state.waiters.splice(0)) resolve();
        team.messages.delete(k);
      }
    }
  }

  /** Messages with state held here (for the memory benchmark and tests). */
  trackedMessages(): number {
    let n = 0;
    for (const team of this.teams.values()) n += team.messages.size;
    return n;
  }

  /** Waits (at most `timeoutMs`) until every pending edit has gone out: for shutdown. */
  async drain(timeoutMs: number): Promise<void> {
    const pending = [...this.teams.values()].flatMap((team) =>
      [...team.messages.values()]
        .filter((m) => m.sent !== m.version || m.inFlight)
        .map((m) => this.flush(m.target, timeoutMs)),
    );
    await Promise.all(pending);
  }

  stop(): void {
    this.stopped = true;
    for (const team of this.teams.values()) clearTimeout(team.timer);
  }

  private team(id: string): TeamState {
    let team = this.teams.get(id);
    if (!team) {
      team = { messages: new Map(), window: [], pausedUntil: 0, timerAt: 0 };
      this.teams.set(id, team);
    }
    return team;
  }

  private pump(teamId: string): void {
    const team = this.teams.get(teamId);
    if (!team || this.stopped) return;
    const { minIntervalMs, perMinute, windowMs = 60_000 } = this.options;
    for (;;) {
      const now = this.now();
      if (now < team.pausedUntil) {
        this.wake(teamId, team, team.pausedUntil);
        return;
      }
      team.window = team.window.filter((entry) => entry.at > now - windowMs);
      const { next, earliest } = nextDue(team, now, minIntervalMs);
      if (!next) {
        if (Number.isFinite(earliest)) this.wake(teamId, team, earliest);
        return;
      }
      if (team.window.length >= perMinute) {
        this.wake(teamId, team, Math.min(...team.window.map((e) => e.at)) + windowMs);
        return;
      }
      const entry = { at: now };
      team.window.push(entry);
      this.sendNow(teamId, team, next, now, entry);
    }
  }

  private sendNow(
    teamId: string,
    team: TeamState,
    state: MessageState,
    now: number,
    entry: { at: number },
  ): void {
    const version = state.version;
    state.inFlight = true;
    state.lastSentAt = now;
    this.send(state.target, state.latest)
      .then(
        () => {
          this.stats.sent += 1;
          state.sent = version;
          settle(state, version, (o) => o.resolve());
        },
        (error: unknown) => {
          if (error instanceof SlackRateLimited) {
            this.stats.rateLimited += 1;
            team.pausedUntil = Math.max(team.pausedUntil, this.now() + error.retryAfterMs);
            return;
          }
          // Not worth retrying (message deleted, refused): drop this content, keep any newer one.
          this.stats.failed += 1;
          state.sent = version;
          settle(state, version, (o) => o.reject(error));
          this.options.logger.error(
            { err: error, sessionId: state.target.sessionId, channel: state.target.channel },
            'could not edit a Slack message',
          );
        },
      )
      .finally(() => {
        entry.at = this.now();
        state.inFlight = false;
        if (state.forgotten && state.outcomes.length === 0) {
          for (const resolve of state.waiters.splice(0)) resolve();
          team.messages.delete(key(state.target));
        } else if (state.sent === state.version) {
          for (const resolve of state.waiters.splice(0)) resolve();
          // Nothing left to send: forget the message (a later edit starts afresh), so finished sessions cost nothing.
          if (state.final && state.outcomes.length === 0) team.messages.delete(key(state.target));
        } else if (state.sent !== version) state.waitingSince = Math.min(state.waitingSince, now);
        this.pump(teamId);
      });
  }

  private wake(teamId: string, team: TeamState, at: number): void {
    if (team.timer && team.timerAt <= at) return;
    clearTimeout(team.timer);
    team.timerAt = at;
    team.timer = setTimeout(
      () => {
        team.timer = undefined;
        this.pump(teamId);
      },
      Math.max(0, at - this.now()),
    );
  }
}
