import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Checkpoint } from '../ports/research.js';
import { inTransaction, type Queryable } from '../store/database.js';
import { isUniqueViolation } from '../store/database-errors.js';
import type { AppliedPolicy } from './policies/channel-policy.js';
import { insertQueued, insertRunning, type NewSession, type SlackOpening } from './records/insert-session.js';
import type { PolicyPlace } from './records/policy-store.js';
import { RESEARCHING } from './records/session-status.js';
import { SpendStore } from './records/spend-store.js';
import {
  type ChannelBudget,
  capRefusal,
  type SpendCaps,
  type SpendLeft,
  spendLeft,
  usd,
} from './spend-caps.js';

/** What a new session must fit: the per-person limit, the daily caps, and what a run is estimated to cost. */
export interface AdmissionRules {
  perUser: number;
  caps: SpendCaps;
  /** The estimate's cost range (low, high); null without prices, when spending cannot be counted. */
  costUsd: [number, number] | null;
  /**
   * In a channel: the policy the request was prepared under (null: none),
   * decided again under the lock (a policy changed meanwhile refuses it).
   */
  policy?: { place: PolicyPlace; applied: AppliedPolicy | null };
}

/** Why a session was not started: values a surface turns into its own sentence. */
export type Refusal =
  | { kind: 'too_many'; active: number; limit: number }
  /** Research in that thread is already under way (or being delivered). */
  | { kind: 'thread_busy'; delivering?: boolean }
  /** The caps leave too little; the sentence has the figures. */
  | { kind: 'spend_cap'; sentence: string }
  /** The question cannot be researched as written; the sentence says what to do. */
  | { kind: 'question'; sentence: string }
  /** The channel's policy does not allow it; the sentence names the policy and who can change it. */
  | { kind: 'policy'; sentence: string }
  /** The channel's policy changed while the request was prepared: it is prepared again. */
  | { kind: 'policy_changed' };

export type Admission =
  | { admitted: true; reservedUsd: number | null }
  | { admitted: false; refusal: Refusal };

/** Where admission figures stand when a request is decided. */
export interface AdmissionFigures {
  active: number;
  /** The thread has research under way, or a report still being delivered to it. */
  threadBusy: false | 'researching' | 'delivering';
  left: SpendLeft;
  /** The version of the channel's policy now in force (null: none). */
  policyVersion?: number | null;
}

/**
 * The decision alone. A session admitted under caps reserves the high end
 * of its estimate, or what the caps leave when that is less (the budget its
 * stop rule then enforces), so sessions started together share the cap
 * instead of each seeing all of it.
 */
export function decideAdmission(figures: AdmissionFigures, rules: AdmissionRules): Admission {
  const applied = rules.policy?.applied ?? null;
  if (rules.policy && (figures.policyVersion ?? null) !== (applied?.version ?? null))
    return { admitted: false, refusal: { kind: 'policy_changed' } };
  if (figures.threadBusy)
    return {
      admitted: false,
      refusal: { kind: 'thread_busy', delivering: figures.threadBusy === 'delivering' },
    };
  if (figures.active >= rules.perUser)
    return { admitted: false, refusal: { kind: 'too_many', active: figures.active, limit: rules.perUser } };
  const low = rules.costUsd?.[0] ?? null;
  const perRun = applied?.runBudgetUsd;
  if (perRun !== undefined && low !== null && perRun < low)
    return {
      admitted: false,
      refusal: {
        kind: 'policy',
        sentence: `A research costs at least about ${usd(low)}, and this channel's research policy allows ${usd(perRun)} a run; ask ${applied!.raisedBy} to raise it.`,
      },
    };
  const capped = figures.left.limitUsd;
  const sentence = capped === undefined ? undefined : capRefusal(figures.left, low);
  if (sentence) return { admitted: false, refusal: { kind: 'spend_cap', sentence } };
  const limits = [capped, perRun].filter((v): v is number => v !== undefined);
  const limitUsd = limits.length ? Math.min(...limits) : undefined;
  const high = rules.costUsd?.[1] ?? null;
  const reservedUsd = high === null ? null : limitUsd === undefined ? high : Math.min(high, limitUsd);
  return { admitted: true, reservedUsd };
}

/** Who asks, and in which thread (a thread with research under way takes no second one). */
/** Who asks, and where (a thread takes one research at a time). */
export type Asker = Pick<NewSession, 'requester' | 'teamId' | 'channelId' | 'threadTs'>;

/** Every admission takes this one lock: decisions are serialised, each a few milliseconds long. */
const ADMISSION_LOCK = 0x5e55_10a;

/**
 * Decides and creates in one transaction under one advisory lock, on
 * Postgres and PGlite alike: two requests at once never both see the room
 * that only one of them fits in, whoever and wherever they are.
 */
export class SessionAdmission {
  constructor(
    private readonly pool: pg.Pool,
    private readonly deliveryDeadlineHours: number,
  ) {}

  /** The decision as things stand, without deciding: a request sure to be refused is told so early. */
  async check(who: Asker, rules: AdmissionRules): Promise<Admission> {
    return decideAdmission(await figures(this.pool, who, rules), rules);
  }

  /** A session for the workers, if admitted. */
  admitQueued(
    session: NewSession,
    initial: Checkpoint,
    slack: SlackOpening,
    rules: AdmissionRules,
  ): Promise<Admission> {
    return this.admit(session, rules, (client, reservedUsd) =>
      insertQueued(client, { ...session, reservedUsd }, initial, slack, this.deliveryDeadlineHours),
    );
  }

  /** A session the terminal runs itself (`deep-research ask`), if admitted. */
  admitRunning(session: NewSession, initial: Checkpoint, rules: AdmissionRules): Promise<Admission> {
    return this.admit(session, rules, (client, reservedUsd) =>
      insertRunning(client, { ...session, reservedUsd }, initial),
    );
  }

  private async admit(
    session: NewSession,
    rules: AdmissionRules,
    insert: (client: Queryable, reservedUsd: number | null) => Promise<void>,
  ): Promise<Admission> {
    try {
      return await underAdmissionLock(this.pool, async (client) => {
        const decision = decideAdmission(await figures(client, session, rules), rules);
        if (decision.admitted) await insert(client, decision.reservedUsd);
        return decision;
      });
    } catch (error) {
      // The thread's next turn was taken by a request decided just before this one.
      if (isUniqueViolation(error)) return { admitted: false, refusal: { kind: 'thread_busy' } };
      throw error;
    }
  }
}

/** Runs `work` in one transaction under admission's one lock (Postgres and PGlite alike). */
function underAdmissionLock<T>(pool: pg.Pool, work: (client: Queryable) => Promise<T>): Promise<T> {
  return inTransaction(pool, work, ADMISSION_LOCK);
}

/** A hold on the caps for one paid call, or the sentence saying the caps leave too little for it. */
export type SpendHold = { held: string } | { refused: string };

/**
 * The spending gate for a paid call outside a research session (a question
 * asked of a report): decided under admission's lock, so calls made at once
 * share what the caps leave instead of each seeing all of it. The hold counts
 * as spending until `release`, which comes with the call's real cost recorded.
 */
export class SpendGate {
  constructor(
    private readonly pool: pg.Pool,
    private readonly caps: SpendCaps,
  ) {}

  async hold(
    who: { requester: string; teamId: string | null; channelId?: string | null },
    usd: number,
    what: string,
    /** The channel's daily budget, when its policy has one. */
    budget?: ChannelBudget,
  ): Promise<SpendHold> {
    return underAdmissionLock(this.pool, async (client) => {
      const left = await spendLeft(new SpendStore(client), this.caps, who, undefined, budget);
      const refused = left.limitUsd === undefined ? undefined : capRefusal(left, usd, what);
      if (refused) return { refused };
      const id = randomUUID();
      await client.query(
        'INSERT INTO spend_holds (id, requester, team_id, reserved_usd, channel_id) VALUES ($1, $2, $3, $4, $5)',
        [id, who.requester, who.teamId, usd, who.channelId ?? null],
      );
      return { held: id };
    });
  }

  /** The call's cost is recorded (or it never started): the hold no longer counts. */
  async release(id: string): Promise<void> {
    await this.pool.query('DELETE FROM spend_holds WHERE id = $1', [id]);
  }

  /** A call with no record of its own: its cost recorded (paid_calls) and its hold released, in one transaction. */
  async settle(
    id: string,
    who: { requester: string; teamId: string | null; channelId?: string | null },
    call: { purpose: string; costUsd: number; tokens: number },
  ): Promise<void> {
    await this.pool.query(
      `WITH released AS (DELETE FROM spend_holds WHERE id = $1)
       INSERT INTO paid_calls (id, requester, team_id, purpose, cost_usd, tokens, channel_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, who.requester, who.teamId, call.purpose, call.costUsd, call.tokens, who.channelId ?? null],
    );
  }
}

async function figures(db: Queryable, s: Asker, rules: AdmissionRules): Promise<AdmissionFigures> {
  const { rows } = await db.query(
    `SELECT
       (SELECT count(*)::int FROM sessions WHERE requester = $1 AND status = ANY($2::text[])) AS active,
       (SELECT CASE WHEN bool_or(status = ANY($2::text[])) THEN 'researching' ELSE 'delivering' END
          FROM sessions WHERE $4::text IS NOT NULL AND team_id IS NOT DISTINCT FROM $3
           AND channel_id = $4 AND thread_ts = $5
           AND (status = ANY($2::text[]) OR status = 'delivering')
        HAVING count(*) > 0) AS busy,
       (SELECT version FROM channel_policies WHERE team_id = COALESCE($3, '') AND channel_id = $4) AS policy`,
    [s.requester, RESEARCHING, s.teamId ?? null, s.channelId ?? null, s.threadTs ?? null],
  );
  const applied = rules.policy?.applied;
  const budget =
    applied?.dailyBudgetUsd !== undefined && s.channelId
      ? { channelId: s.channelId, dailyUsd: applied.dailyBudgetUsd, raisedBy: applied.raisedBy }
      : undefined;
  const who = { requester: s.requester, teamId: s.teamId ?? null };
  const left = await spendLeft(new SpendStore(db), rules.caps, who, undefined, budget);
  return {
    active: rows[0].active,
    threadBusy: rows[0].busy ?? false,
    left,
    policyVersion: rows[0].policy ?? null,
  };
}
