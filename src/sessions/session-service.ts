import { withoutControls } from '../ports/control-characters.js';
import { type FileReads, withFileReads } from '../ports/file-reads.js';
import type { Checkpoint, ResearchRequest, SessionView } from '../ports/research.js';
import type { SteeringStore } from '../store/steering-store.js';
import type { AdmissionRules, Asker, Refusal, SessionAdmission } from './admission.js';
import { type AppliedPolicy, appliedPolicy } from './policies/channel-policy.js';
import {
  type PolicyDecision,
  type PolicyGate,
  type PolicyRequest,
  underPolicy,
} from './policies/policy-gate.js';
import { questionRefusal } from './question-refusal.js';
import type { AuditAction, AuditEvent, RecordAudit } from './records/audit-store.js';
import type { NewSession, SlackOpening } from './records/insert-session.js';
import type { OutboxIntent } from './records/outbox-intent.js';
import type { SessionLifecycle } from './records/session-lifecycle.js';
import type { SessionRow, SessionStore } from './records/session-store.js';
import type { TerminalLifecycle } from './records/terminal-lifecycle.js';
import type { ResearchBackends } from './research-backends.js';

export interface SessionServiceDeps {
  sessions: SessionStore;
  lifecycle: SessionLifecycle;
  /** The moves of sessions a terminal runs itself. */
  terminals: TerminalLifecycle;
  /** Decides whether a session may start and creates it, atomically. */
  admission: SessionAdmission;
  /** What a new session must fit (see admissionRules). */
  rules: () => Promise<AdmissionRules>;
  research: ResearchBackends;
  steering?: SteeringStore;
  /** How reading the files shared with each question went (said under its plan). */
  fileReads?: FileReads;
  newSessionId: () => string;
  maxQuestionChars: number;
  /** The audit trail: every start, cancel, steer and plan edit, with who and where. */
  audit?: RecordAudit;
  /** Channel policies: who may start research where, with what (none: the app as set up everywhere). */
  policies?: PolicyGate;
}

/** A new research: its record, and either a request for the current backend or a continued checkpoint. */
export interface Start {
  session: Omit<NewSession, 'id'> & { id?: string };
  request?: Omit<ResearchRequest, 'question'>;
  /** Its first checkpoint when the surface has it: a continued research's (see `continueFrom`), or one it runs itself. */
  checkpoint?: Checkpoint;
}

export type Started =
  | { started: true; id: string; checkpoint: Checkpoint }
  | { started: false; refusal: Refusal };

/**
 * The session's use cases, one definition for every surface (Slack, the
 * terminal, any later one): start, answer the questions, start now, edit the
 * plan, cancel, continue (research more), steer. Surfaces decide who may do
 * what and what their thread shows (passed in as outbox intents, recorded
 * with the move in one statement); this decides what happens to the session.
 */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  /**
   * Why a new research cannot start, or undefined: the question (when there
   * is one), then admission's rules read without deciding (a request sure to
   * be refused is told so before anything is posted; starting decides).
   */
  async refusal(who: Asker & { scheduled?: boolean }, question?: string): Promise<Refusal | undefined> {
    const sentence =
      question === undefined ? undefined : questionRefusal(question, this.deps.maxQuestionChars);
    if (sentence) return { kind: 'question', sentence };
    const gate = await this.policyFor(who);
    if (gate?.refusal) return { kind: 'policy', sentence: gate.refusal };
    const decision = await this.deps.admission.check(who, await this.rulesUnder(gate));
    return decision.admitted ? undefined : decision.refusal;
  }

  /** The channel policy where a request is made (none outside a channel or without policies). */
  policyFor(who: PolicyRequest): Promise<PolicyDecision | undefined> {
    return this.deps.policies?.decide(who) ?? Promise.resolve(undefined);
  }

  private async rulesUnder(gate: PolicyDecision | undefined): Promise<AdmissionRules> {
    const rules = await this.deps.rules();
    if (!gate?.place) return rules;
    return { ...rules, policy: { place: gate.place, applied: gate.stored && appliedPolicy(gate.stored) } };
  }

  /** A session for the workers, admitted atomically (the question checked first), with its thread's first writes. */
  async queue(start: Start, slack: SlackOpening = {}): Promise<Started> {
    return this.start(start, (session, checkpoint, rules) =>
      this.deps.admission.admitQueued(session, checkpoint, slack, rules),
    );
  }

  /** A session this process runs itself (the terminal's `ask`), admitted like every other. */
  startHere(start: Start): Promise<Started> {
    return this.start(start, (session, checkpoint, rules) =>
      this.deps.admission.admitRunning(session, checkpoint, rules),
    );
  }

  private async start(
    { session, request, checkpoint: given }: Start,
    admit: (
      session: NewSession,
      checkpoint: Checkpoint,
      rules: AdmissionRules,
    ) => Promise<{ admitted: true } | { admitted: false; refusal: Refusal }>,
  ): Promise<Started> {
    const sentence = questionRefusal(session.question, this.deps.maxQuestionChars);
    if (sentence) return { started: false, refusal: { kind: 'question', sentence } };
    const id = given?.sessionId ?? session.id ?? this.deps.newSessionId();
    // A policy changed between its reading and admission's lock: the request is prepared again under the new one.
    let admission: Awaited<ReturnType<typeof admit>> | undefined;
    let checkpoint = given;
    let applied: AppliedPolicy | null | undefined;
    for (let attempt = 0; attempt < 3 && (!admission || changed(admission)); attempt++) {
      const gate = await this.policyFor({ ...session, scheduled: Boolean(session.scheduleId) });
      if (gate?.refusal) return { started: false, refusal: { kind: 'policy', sentence: gate.refusal } };
      const watched = session.origin === 'slack' && !session.scheduleId;
      checkpoint =
        given ??
        this.deps.research.current.begin(id, {
          question: session.question,
          ...underPolicy(request ?? {}, gate?.stored?.policy, watched),
        });
      const rules = await this.rulesUnder(gate);
      applied = rules.policy?.applied;
      admission = await admit({ ...session, id, policy: applied }, checkpoint, rules);
    }
    if (!admission!.admitted) return { started: false, refusal: admission!.refusal };
    await this.deps.audit?.({
      actor: session.requester,
      action: 'session.started',
      teamId: session.teamId,
      channelId: session.channelId,
      sessionId: id,
      scheduleId: session.scheduleId,
      detail: {
        origin: session.origin,
        backend: checkpoint!.backend ?? null,
        policy: applied?.version ?? null,
        reservedUsd: session.reservedUsd ?? null,
      },
    });
    return { started: true, id, checkpoint: checkpoint! };
  }

  /** A stored session as surfaces read it, whichever backend researches it. */
  async view(id: string): Promise<SessionView | null> {
    const checkpoint = await this.deps.sessions.loadCheckpoint(id);
    const view = checkpoint && this.deps.research.view(checkpoint);
    if (!view?.files || !this.deps.fileReads) return view;
    return {
      ...view,
      files: withFileReads(view.files, await this.deps.fileReads.of([id, ...view.continues])),
    };
  }

  /**
   * The requester answered the questions (or started without answering:
   * `null`): the session goes back to the queue, once; false when it no
   * longer waits for answers (a second answer, a double click).
   */
  async answer(id: string, text: string | null, intents: OutboxIntent[] = []): Promise<boolean> {
    const checkpoint = await this.deps.sessions.loadCheckpoint(id);
    if (!checkpoint) return false;
    const answer = text === null ? null : withoutControls(text);
    const answered = this.deps.research.of(checkpoint).answer(checkpoint, answer);
    return this.deps.lifecycle.requeueAnswered(answered, intents);
  }

  /**
   * The requester answered at the prompt of the process holding the session
   * (a terminal): research goes on there; false when it no longer waits.
   */
  async answerHere(id: string, text: string | null, owner: string): Promise<boolean> {
    const checkpoint = await this.deps.sessions.loadCheckpoint(id);
    if (!checkpoint) return false;
    const answered = this.deps.research.of(checkpoint).answer(checkpoint, text && withoutControls(text));
    return this.deps.terminals.answered(answered, owner);
  }

  /**
   * The requester started the plan at the prompt of the process holding the
   * session (a terminal), as shown or as they edited it (`plan`); false when
   * it no longer waits (cancelled from elsewhere).
   */
  async startReviewedHere(id: string, owner: string, plan?: string): Promise<boolean> {
    const checkpoint = plan === undefined ? null : await this.deps.sessions.loadCheckpoint(id);
    if (checkpoint) {
      const edited = this.deps.research.of(checkpoint).withPlan(checkpoint, plan!);
      await this.deps.sessions.saveCheckpoint(edited, owner);
    }
    return this.deps.lifecycle.begin(id, owner);
  }

  /** [Start now] on a plan under review: due at once; false when it no longer waits. */
  startNow(id: string): Promise<boolean> {
    return this.deps.lifecycle.startNow(id);
  }

  /** `by`'s plan research will follow, while it waits for review (the wait starts again); false once started. */
  async editPlan(
    id: string,
    by: string,
    plan: string,
    seconds: number,
    intents: OutboxIntent[] = [],
  ): Promise<boolean> {
    const checkpoint = await this.deps.sessions.loadCheckpoint(id);
    if (!checkpoint) return false;
    const edited = this.deps.research.of(checkpoint).withPlan(checkpoint, plan);
    const saved = await this.deps.lifecycle.editPlan(id, { plan, checkpoint: edited }, seconds, intents);
    if (saved)
      await this.audited(id, by, 'session.plan_edited', { steps: plan.split('\n').filter(Boolean).length });
    return saved;
  }

  /**
   * Ends a session waiting for answers or a start at once (with the writes
   * that close its thread; `holder`: the process showing it, which may end
   * it), or asks running research to stop: `stopping`,
   * and what it found is delivered when it does.
   */
  async cancel(
    row: SessionRow,
    by: string,
    closing: () => Promise<OutboxIntent[]>,
    holder?: string,
  ): Promise<'cancelled' | 'stopping'> {
    const record = async (outcome: 'cancelled' | 'stopping') => {
      await this.deps.audit?.({
        actor: by,
        action: 'session.cancelled',
        teamId: row.teamId,
        channelId: row.channelId,
        sessionId: row.id,
        detail: { outcome, status: row.status },
      });
      return outcome;
    };
    if (row.status === 'clarifying' || row.status === 'reviewing') {
      if (await this.deps.lifecycle.cancelWaiting(row.id, by, await closing(), holder))
        return record('cancelled');
    }
    await this.deps.lifecycle.cancels.request(row.id, by);
    return record('stopping');
  }

  /**
   * [Research more]: the first checkpoint of a new session going on from a
   * finished one with everything it found, or null when it has no report.
   */
  async continueFrom(row: SessionRow): Promise<Checkpoint | null> {
    const finished = await this.deps.sessions.loadCheckpoint(row.id);
    if (!finished) return null;
    const backend = this.deps.research.of(finished);
    const report = row.report ?? backend.view(finished).report;
    if (!report) return null;
    return backend.continueFrom(finished, this.deps.newSessionId(), report);
  }

  /** The requester's note to running research, read at its next step; false when there is nothing to say. */
  async steer(id: string, by: string, text: string): Promise<boolean> {
    const note = withoutControls(text).trim();
    if (!note || !this.deps.steering) return false;
    await this.deps.steering.add(id, by, note.slice(0, this.deps.maxQuestionChars));
    await this.audited(id, by, 'session.steered', { chars: note.length });
    return true;
  }

  /** An action on a stored session, in the audit trail with the session's place. */
  private async audited(id: string, by: string, action: AuditAction, detail: AuditEvent['detail']) {
    if (!this.deps.audit) return;
    const row = await this.deps.sessions.get(id).catch(() => null);
    await this.deps.audit({
      actor: by,
      action,
      teamId: row?.teamId,
      channelId: row?.channelId,
      sessionId: id,
      detail,
    });
  }
}

function changed(admission: { admitted: boolean; refusal?: Refusal }): boolean {
  return !admission.admitted && admission.refusal?.kind === 'policy_changed';
}
