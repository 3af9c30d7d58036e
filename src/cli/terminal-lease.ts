import type { Logger } from '../ports/logger.js';

/**
 * Why a terminal's run stopped without ending: the terminal closed (SIGHUP),
 * the process was told to stop (SIGTERM), or the lease was lost while the
 * process was paused. The session rests `interrupted`, to be resumed.
 */
export class Interruption extends Error {
  constructor(
    message: string,
    readonly leaseLost = false,
  ) {
    super(message);
  }
}

/** The queue's lease on a session, as a terminal holds it (the workers' own leases, jobs/session-leases.ts). */
export interface SessionLease {
  readonly owner: string;
  /** False `held`: another process took the session over; `cancelRequested`: a cancel was asked from elsewhere. */
  heartbeat(id: string): Promise<{ held: boolean; cancelRequested: boolean }>;
  release(id: string): Promise<void>;
}

/**
 * The lease a terminal holds on the session it runs, renewed every third of
 * the lease. A cancel asked from elsewhere
 * (`deep-research cancel`) stops the run as Ctrl-C would; a lease found
 * taken (the process was paused past it and the session swept to
 * `interrupted`) stops it as an interruption.
 */
export class TerminalLease {
  private readonly beats = new Map<string, () => void>();

  constructor(
    private readonly leases: SessionLease,
    /** Where a terminal's session is put to rest interrupted (store/terminal-lifecycle.ts). */
    private readonly terminals: { interrupt(id: string, owner: string): Promise<boolean> },
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  get owner(): string {
    return this.leases.owner;
  }

  /** How long the lease lasts unrenewed. */
  get seconds(): number {
    return this.leaseMs / 1000;
  }

  keep(id: string): { lost: AbortSignal; stop: () => void } {
    const lost = new AbortController();
    const beat = () => {
      this.leases.heartbeat(id).then(
        (now) => {
          if (!now.held) lost.abort(new Interruption('this process was paused past its lease', true));
          else if (now.cancelRequested) lost.abort(new Error('cancelled with deep-research cancel'));
        },
        // A database blip: the next beat tries again, well inside the lease.
        (err) => this.log.warn({ err, sessionId: id }, 'could not renew the session lease'),
      );
    };
    const timer = setInterval(beat, Math.max(1000, this.leaseMs / 3));
    timer.unref();
    this.beats.set(id, beat);
    return {
      lost: lost.signal,
      stop: () => {
        clearInterval(timer);
        this.beats.delete(id);
      },
    };
  }

  /**
   * A cancel was announced for `id` (Postgres NOTIFY, heard by the
   * composition): look at once instead of at the next beat, so a cancel from
   * another terminal stops this run within a second.
   */
  noticed(id: string): void {
    this.beats.get(id)?.();
  }

  /** Looks at every session this process runs now (where cancels are not announced: the embedded database). */
  noticedAny(): void {
    for (const beat of this.beats.values()) beat();
  }

  interrupt(id: string): Promise<boolean> {
    return this.terminals.interrupt(id, this.owner);
  }

  release(id: string): Promise<void> {
    return this.leases.release(id);
  }
}
