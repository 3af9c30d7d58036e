import { z } from 'zod';
import type { SourceLimits } from '../../ports/research.js';
import { usd } from '../spend-caps.js';

const slackUser = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id such as U0123ABCD');
const slackGroup = z.string().regex(/^S[A-Z0-9]{2,}$/, 'a Slack user group id such as S0123ABCD');

/**
 * A channel's policy: who may start research there, with what, within what.
 * Every field's default is what the app does without a policy, so an empty
 * policy changes nothing.
 */
export const ChannelPolicy = z.strictObject({
  /** Who may start research here (every entry point: command, mention, [Research more], schedules, asks). */
  starters: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('everyone') }),
      z.strictObject({
        kind: z.literal('named'),
        users: z.array(slackUser).max(200).default([]),
        groups: z.array(slackGroup).max(20).default([]),
      }),
      z.strictObject({ kind: z.literal('admins') }),
    ])
    .default({ kind: 'everyone' }),
  /** The backends research here may use (RESEARCH_BACKEND's names); unset: any. */
  backends: z.array(z.string().min(1)).min(1).optional(),
  /** The sources research here may read. */
  sources: z
    .strictObject({
      web: z.boolean().default(true),
      knowledgeBase: z.boolean().default(true),
      threadFiles: z.boolean().default(true),
      /** MCP_SERVERS names allowed here, or every configured one. */
      mcpServers: z.union([z.literal('all'), z.array(z.string().min(1))]).default('all'),
    })
    .default({ web: true, knowledgeBase: true, threadFiles: true, mcpServers: 'all' }),
  /** What one research here may spend (USD). */
  runBudgetUsd: z.number().positive().optional(),
  /** What research and questions asked here may spend in a UTC day (USD), everyone's together. */
  dailyBudgetUsd: z.number().positive().optional(),
  /** Plan review for research started here: on or off whatever PLAN_REVIEW_SECONDS says; unset: the app's default. */
  planReview: z.enum(['on', 'off']).optional(),
  /** Whether schedules may post research here. */
  schedules: z.boolean().default(true),
  /** People who, besides workspace admins, may change this policy (a workspace admin names them). */
  managers: z.array(slackUser).max(50).default([]),
});
export type ChannelPolicy = z.output<typeof ChannelPolicy>;

/** What a session keeps of the policy it was admitted under: it holds for the whole run, resumed or continued. */
export interface AppliedPolicy {
  version: number;
  /** describePolicy's line, for its plan message. */
  summary: string;
  sources: SourceLimits;
  runBudgetUsd?: number;
  dailyBudgetUsd?: number;
  /** Who can change it, as a refusal names them. */
  raisedBy: string;
}

export function appliedPolicy(stored: StoredPolicy): AppliedPolicy {
  const { policy } = stored;
  return {
    version: stored.version,
    summary: describePolicy(policy),
    sources: policy.sources,
    runBudgetUsd: policy.runBudgetUsd,
    dailyBudgetUsd: policy.dailyBudgetUsd,
    raisedBy: whoChanges(policy),
  };
}

/** A policy as stored, with who set it and its version (admission compares versions). */
export interface StoredPolicy {
  teamId: string | null;
  channelId: string;
  policy: ChannelPolicy;
  version: number;
  updatedBy: string;
  updatedAt: Date;
}

/** What a policy's gate needs to know of a request. */
export interface PolicyAsk {
  requester: string;
  /** Whether the requester is a workspace admin, and in which of the policy's user groups (asked only when needed). */
  standing: { admin: boolean; groups: string[] };
  /** The backend that would research it, and whether it always searches the web itself (a hosted one). */
  backend: { name: string; searchesWebItself: boolean };
  /** A schedule's run, or a schedule being made. */
  scheduled?: boolean;
  /** A question asked of a report (who may is decided; the backend is not). */
  asking?: boolean;
}

/** Who can change a channel's policy, as a refusal names them (no live mention: it may be posted in a channel). */
export function whoChanges(policy: ChannelPolicy): string {
  const n = policy.managers.length;
  if (n === 0) return 'a workspace admin';
  const who = n === 1 ? 'the person' : `one of the ${n} people`;
  return `a workspace admin or ${who} managing this channel's policy (\`/research settings\` names them)`;
}

/** Whether the requester is one of the people a policy lets start research. */
export function mayStart(policy: ChannelPolicy, ask: Pick<PolicyAsk, 'requester' | 'standing'>): boolean {
  const { starters } = policy;
  if (ask.standing.admin || starters.kind === 'everyone') return true;
  if (starters.kind === 'admins') return false;
  return (
    starters.users.includes(ask.requester) || starters.groups.some((g) => ask.standing.groups.includes(g))
  );
}

/**
 * One sentence when the policy does not let this request start research
 * here, naming the policy and who can change it; else undefined. Budgets are
 * decided with the caps (see admission).
 */
export function policyRefusal(policy: ChannelPolicy, ask: PolicyAsk): string | undefined {
  const change = `ask ${whoChanges(policy)} to change it`;
  if (!mayStart(policy, ask)) {
    const who =
      policy.starters.kind === 'admins' ? 'only workspace admins' : 'only the people and groups it names';
    const what = ask.asking ? 'ask its reports questions' : 'start research here';
    return `This channel's research policy lets ${who} ${what}; ${change}.`;
  }
  if (ask.asking) return undefined;
  if (ask.scheduled && !policy.schedules)
    return `This channel's research policy does not allow scheduled research here; ${change}.`;
  if (policy.backends && !policy.backends.includes(ask.backend.name))
    return `This channel's research policy allows research only with ${list(policy.backends)}, and this app researches with ${ask.backend.name}; ${change}.`;
  if (!policy.sources.web && ask.backend.searchesWebItself)
    return `This channel's research policy does not allow web search, and this app's ${ask.backend.name} backend always searches the web; ${change}.`;
  return undefined;
}

/** A policy that leaves research nothing to read cannot be saved: the sentence says so. */
export function policyProblem(policy: ChannelPolicy): string | undefined {
  const { web, knowledgeBase, threadFiles, mcpServers } = policy.sources;
  const mcp = mcpServers === 'all' || mcpServers.length > 0;
  if (!web && !knowledgeBase && !threadFiles && !mcp)
    return 'This policy leaves research no source to read: allow at least one of web search, the knowledge base, thread files or an MCP server.';
  if (policy.starters.kind === 'named' && !policy.starters.users.length && !policy.starters.groups.length)
    return 'This policy names nobody who may start research: name people or a user group, or choose everyone or admins only.';
  return undefined;
}

/** The policy in one line, as a plan message and `/research settings` show it (no one is mentioned). */
export function describePolicy(policy: ChannelPolicy): string {
  const parts: string[] = [];
  const { sources, starters } = policy;
  const allowed = [
    sources.web && 'web',
    sources.knowledgeBase && 'knowledge base',
    sources.threadFiles && 'thread files',
    (sources.mcpServers === 'all' || sources.mcpServers.length > 0) &&
      (sources.mcpServers === 'all' ? 'MCP servers' : `MCP: ${sources.mcpServers.join(', ')}`),
  ].filter((s): s is string => Boolean(s));
  if (allowed.length < 4 || sources.mcpServers !== 'all') parts.push(`sources: ${allowed.join(', ')}`);
  if (policy.backends) parts.push(`backends: ${policy.backends.join(', ')}`);
  if (policy.runBudgetUsd !== undefined) parts.push(`${usd(policy.runBudgetUsd)} a run`);
  if (policy.dailyBudgetUsd !== undefined) parts.push(`${usd(policy.dailyBudgetUsd)} a day`);
  if (policy.planReview) parts.push(`plan review ${policy.planReview}`);
  if (starters.kind === 'admins') parts.push('started by admins only');
  if (starters.kind === 'named') {
    const n = starters.users.length + starters.groups.length;
    parts.push(`started by ${n} named ${n === 1 ? 'person or group' : 'people and groups'}`);
  }
  if (!policy.schedules) parts.push('no schedules');
  return parts.length ? parts.join(' · ') : 'as the app is set up';
}

function list(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The empty policy: what the app does without one. */
export function defaultPolicy(): ChannelPolicy {
  return ChannelPolicy.parse({});
}
