/** Where a session stands, and the only moves it can make: one owner for every status write and list. */

export type SessionStatus =
  | 'clarifying'
  | 'reviewing'
  | 'queued'
  | 'running'
  | 'reporting'
  | 'delivering'
  | 'done'
  | 'undeliverable'
  | 'failed'
  | 'cancelled'
  | 'expired'
  /** A terminal's session whose process went away: resumable, cancellable, not counted as running. */
  | 'interrupted';

/** Research not finished yet: these count against the per-user limit and can be cancelled. */
export const RESEARCHING: readonly SessionStatus[] = [
  'clarifying',
  'reviewing',
  'queued',
  'running',
  'reporting',
];
/**
 * A worker can run these: waiting for one, handed back by one that stopped or
 * died, or a reviewed plan whose start time (queued_at) has come.
 */
export const RUNNABLE: readonly SessionStatus[] = ['reviewing', 'queued', 'running', 'reporting'];
/** Their reservations still count against the spending caps: research that may go on spending. */
export const HOLDS_SPENDING: readonly SessionStatus[] = [...RESEARCHING, 'interrupted'];
/** Nothing more will happen to these (retention may delete them). */
export const FINISHED: readonly SessionStatus[] = ['done', 'undeliverable', 'failed', 'cancelled', 'expired'];

/**
 * The only moves a session can make. `delivering` sits between a written
 * report and a reader who can see it: `done` means the requester has it.
 */
export const TRANSITIONS: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  clarifying: ['queued', 'running', 'cancelled', 'expired', 'interrupted'],
  reviewing: ['running', 'cancelled', 'interrupted'],
  // A scheduled run fails before it runs when Slack will not post its thread's root.
  queued: ['running', 'failed'],
  running: [
    'reporting',
    'clarifying',
    'reviewing',
    'delivering',
    'done',
    'failed',
    'cancelled',
    'interrupted',
  ],
  reporting: ['delivering', 'done', 'failed', 'cancelled', 'interrupted'],
  delivering: ['done', 'undeliverable'],
  done: [],
  undeliverable: [],
  failed: [],
  cancelled: [],
  expired: [],
  interrupted: ['running', 'cancelled'],
};

/**
 * The requester's notes reach the orchestrator at its next (or first) cycle:
 * once the report is being written there is none.
 */
export const STEERABLE: readonly SessionStatus[] = ['reviewing', 'queued', 'running'];

export function isResearching(status: SessionStatus): boolean {
  return RESEARCHING.includes(status);
}

/**
 * The statuses a session may reach `to` from, by the table; `among` narrows
 * them for a write that applies to some only (a worker begins only a queued
 * or reviewed session). Every status write takes its guard from here, so no
 * guard is written twice; naming a move the table does not allow is a bug.
 */
export function movesTo(to: SessionStatus, among?: readonly SessionStatus[]): SessionStatus[] {
  const allowed = (Object.keys(TRANSITIONS) as SessionStatus[]).filter((from) =>
    TRANSITIONS[from].includes(to),
  );
  if (!among) return allowed;
  const stray = among.filter((from) => !allowed.includes(from));
  if (stray.length) throw new Error(`no move from ${stray.join(', ')} to ${to}`);
  return [...among];
}
