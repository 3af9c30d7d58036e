import type { RecordAudit } from '../records/audit-store.js';
import type { PolicyPlace, PolicyStore } from '../records/policy-store.js';
import { type ChannelPolicy, describePolicy, policyProblem, type StoredPolicy } from './channel-policy.js';

/** Who changes a policy: a workspace admin, or a person an admin named as one of the channel's policy managers. */
export interface PolicyActor {
  id: string;
  /** Whether they are a workspace admin (the terminal's operator is). */
  isAdmin: () => Promise<boolean>;
}

/** What a policy may name: the backends this app runs and the MCP servers it is set up with. */
export interface PolicyChoices {
  backends: string[];
  mcpServers: string[];
}

export type PolicyChanged = { done: true; stored: StoredPolicy | null } | { done: false; sentence: string };

/**
 * Channel policies' use cases, one definition for Slack and the terminal:
 * read one, set one (checked against what this app runs), clear one. Every
 * change is audited with its new version and summary.
 */
export class ChannelPolicies {
  constructor(
    private readonly deps: {
      store: PolicyStore;
      /** A policy names only these. */
      choices: PolicyChoices;
      audit?: RecordAudit;
    },
  ) {}

  get choices(): PolicyChoices {
    return this.deps.choices;
  }

  show(place: PolicyPlace): Promise<StoredPolicy | null> {
    return this.deps.store.get(place);
  }

  list(teamId?: string | null): Promise<StoredPolicy[]> {
    return this.deps.store.list(teamId);
  }

  /** Whether `actor` may change this channel's policy (and, if not an admin, not who manages it). */
  async mayChange(actor: PolicyActor, place: PolicyPlace): Promise<'admin' | 'manager' | false> {
    return roleOf(actor, await this.deps.store.get(place));
  }

  /** Sets the channel's policy, or (`null`) clears it; the sentence says why not. */
  async change(actor: PolicyActor, place: PolicyPlace, policy: ChannelPolicy | null): Promise<PolicyChanged> {
    const current = await this.deps.store.get(place);
    const may = await roleOf(actor, current);
    if (!may)
      return {
        done: false,
        sentence:
          "Only a workspace admin, or someone an admin named to manage this channel's research policy, can change it.",
      };
    if (may === 'manager' && !sameManagers(current?.policy.managers ?? [], policy?.managers ?? []))
      return {
        done: false,
        sentence: "Only a workspace admin can change who manages this channel's research policy.",
      };
    const problem = policy && (policyProblem(policy) ?? this.unknownNames(policy));
    if (problem) return { done: false, sentence: problem };
    if (!policy && !current)
      return { done: false, sentence: 'This channel has no research policy to clear.' };
    const stored = policy ? await this.deps.store.set(place, policy, actor.id) : null;
    if (!policy) await this.deps.store.clear(place);
    await this.deps.audit?.({
      actor: actor.id,
      action: 'policy.changed',
      teamId: place.teamId,
      channelId: place.channelId,
      detail: {
        version: stored?.version ?? null,
        policy: policy ? describePolicy(policy) : 'cleared',
      },
    });
    return { done: true, stored };
  }

  private unknownNames(policy: ChannelPolicy): string | undefined {
    const backend = policy.backends?.find((b) => !this.deps.choices.backends.includes(b));
    if (backend)
      return `There is no research backend named ${backend} here; this app runs ${this.deps.choices.backends.join(', ')}.`;
    const { mcpServers } = policy.sources;
    const server =
      mcpServers === 'all' ? undefined : mcpServers.find((m) => !this.deps.choices.mcpServers.includes(m));
    if (server)
      return `There is no MCP server named ${server} here (MCP_SERVERS names ${this.deps.choices.mcpServers.join(', ') || 'none'}).`;
    return undefined;
  }
}

async function roleOf(
  actor: PolicyActor,
  current: StoredPolicy | null,
): Promise<'admin' | 'manager' | false> {
  if (await actor.isAdmin()) return 'admin';
  return current?.policy.managers.includes(actor.id) ? 'manager' : false;
}

function sameManagers(a: string[], b: string[]): boolean {
  const other = new Set(b);
  return a.length === other.size && a.every((x) => other.has(x));
}
