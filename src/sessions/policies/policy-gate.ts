import type { Logger } from '../../ports/logger.js';
import type { ResearchRequest } from '../../ports/research.js';
import type { PolicyPlace, PolicyStore } from '../records/policy-store.js';
import { type ChannelPolicy, policyRefusal, type StoredPolicy } from './channel-policy.js';

/**
 * Whether a person is a workspace admin, and which of the given user groups
 * they are in (Slack's answer; a terminal has none).
 */
export type Standing = (
  who: { teamId: string | null; userId: string },
  groups: string[],
) => Promise<{ admin: boolean; groups: string[] }>;

/** Where a request is made and by whom, as a policy sees it. */
export interface PolicyRequest {
  teamId?: string | null;
  channelId?: string | null;
  requester: string;
  /** A schedule's run, or a schedule being made. */
  scheduled?: boolean;
  /** A question asked of a report there (not new research: no backend is chosen). */
  asking?: boolean;
}

export interface PolicyDecision {
  /** The channel, when the request is made in one. */
  place: PolicyPlace | null;
  /** The policy in force there (null: the app as set up). */
  stored: StoredPolicy | null;
  /** Why the policy refuses it, in one sentence naming the policy and who can change it. */
  refusal?: string;
}

/** A policy's plan review when it names one and nobody reviews a scheduled run: the app's default wait. */
const POLICY_REVIEW_SECONDS = 60;

/**
 * The one reading of channel policies for every way research starts: who
 * may, with which backend, and what it changes of the request. Budgets are
 * decided with the caps, under admission's lock.
 */
export class PolicyGate {
  constructor(
    private readonly deps: {
      policies: PolicyStore;
      standing?: Standing;
      /** The backend new research uses, and whether it always searches the web itself (a hosted one). */
      backend: { name: string; searchesWebItself: boolean };
      log?: Logger;
    },
  ) {}

  async decide(request: PolicyRequest): Promise<PolicyDecision> {
    if (!request.channelId) return { place: null, stored: null };
    const place = { teamId: request.teamId ?? null, channelId: request.channelId };
    const stored = await this.deps.policies.get(place);
    if (!stored) return { place, stored };
    let standing = { admin: false, groups: [] as string[] };
    if (needsLookUp(stored.policy, request.requester)) {
      try {
        standing =
          (await this.deps.standing?.(
            { teamId: place.teamId, userId: request.requester },
            groupsOf(stored.policy),
          )) ?? standing;
      } catch (err) {
        this.deps.log?.warn(
          { err, channel: place.channelId },
          "could not ask Slack for a person's standing under a channel policy",
        );
        return {
          place,
          stored,
          refusal:
            "Slack did not say whether you may start research under this channel's policy (who is an admin or in its groups); try again in a minute.",
        };
      }
    }
    const refusal = policyRefusal(stored.policy, {
      requester: request.requester,
      standing,
      backend: this.deps.backend,
      scheduled: request.scheduled,
      asking: request.asking,
    });
    return { place, stored, ...(refusal ? { refusal } : {}) };
  }
}

/**
 * The request as the policy changes it: plan review on or off for research
 * a person watches; the thread's files left out when it does not allow them.
 */
export function underPolicy<R extends Pick<ResearchRequest, 'planReview' | 'files'>>(
  request: R,
  policy: ChannelPolicy | undefined,
  watched: boolean,
): R {
  if (!policy) return request;
  const { planReview, files, ...rest } = request;
  const review =
    policy.planReview === 'off'
      ? undefined
      : policy.planReview === 'on' && watched
        ? (planReview ?? { seconds: POLICY_REVIEW_SECONDS })
        : planReview;
  return {
    ...rest,
    ...(review ? { planReview: review } : {}),
    ...(files && policy.sources.threadFiles ? { files } : {}),
  } as R;
}

function needsLookUp(policy: ChannelPolicy, requester: string): boolean {
  const { starters } = policy;
  return starters.kind !== 'everyone' && !(starters.kind === 'named' && starters.users.includes(requester));
}

function groupsOf(policy: ChannelPolicy): string[] {
  return policy.starters.kind === 'named' ? policy.starters.groups : [];
}
