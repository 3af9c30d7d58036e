import type { ChannelPolicies } from '../sessions/policies/channel-policies.js';
import { ChannelPolicy, describePolicy, type StoredPolicy } from '../sessions/policies/channel-policy.js';
import { type CommandSpec, json } from './command-spec.js';
import type { Io } from './io.js';

const TEAM = {
  type: 'string',
  value: 'ID',
  help: 'the Slack workspace (team id); needed only when the database knows more than one',
} as const;

export const POLICY_COMMANDS: CommandSpec[] = [
  {
    name: 'policy',
    sub: 'list',
    forms: ['policy list [--json]'],
    about: ["Every channel's research policy, in one line each."],
    flags: { json: json('each policy') },
    positionals: false,
  },
  {
    name: 'policy',
    sub: 'set',
    forms: ["policy set CHANNEL 'JSON' [--team ID]"],
    about: [
      "Set a channel's research policy, as JSON (every field optional; what is left",
      'out is as the app is set up): {"starters":{"kind":"named","users":["U…"],',
      '"groups":["S…"]}, "backends":["agents"], "sources":{"web":false,',
      '"knowledgeBase":true,"threadFiles":true,"mcpServers":["wiki"]},',
      '"runBudgetUsd":2, "dailyBudgetUsd":20, "planReview":"on",',
      '"schedules":false, "managers":["U…"]}. docs/policies.md says each.',
    ],
    flags: { team: TEAM },
    positionals: true,
  },
  {
    name: 'policy',
    sub: 'show',
    forms: ['policy show CHANNEL [--team ID] [--json]'],
    about: ["A channel's research policy, whole."],
    flags: { team: TEAM, json: json('the policy') },
    positionals: true,
  },
  {
    name: 'policy',
    sub: 'clear',
    forms: ['policy clear CHANNEL [--team ID]'],
    about: ['Research in the channel goes back to the app as set up.'],
    flags: { team: TEAM },
    positionals: true,
  },
];

/**
 * `deep-research policy`: channel policies for whoever can open the database
 * (an operator, acting as a workspace admin; changes are audited as `cli:NAME`).
 */
export async function policyCommand(
  policies: ChannelPolicies,
  sub: string,
  positionals: string[],
  flags: { team?: string; json?: boolean; actor: string; teams: () => Promise<string[]> },
  io: Io,
): Promise<number> {
  const fail = (sentence: string, code = 2) => {
    io.stderr.write(`error: ${sentence}\n`);
    return code;
  };
  if (sub === 'list') {
    const all = await policies.list();
    for (const p of all) io.stdout.write(flags.json ? `${JSON.stringify(p)}\n` : `${line(p)}\n`);
    if (!all.length && !flags.json) io.stdout.write('No channel has a research policy.\n');
    return 0;
  }
  const [channelId, text, ...extra] = positionals;
  if (!channelId || extra.length || (sub === 'set') !== (text !== undefined))
    return fail(`use "deep-research ${POLICY_COMMANDS.find((c) => c.sub === sub)!.forms[0]}"`);
  const teams = flags.team ? [flags.team] : await flags.teams();
  if (teams.length > 1)
    return fail(`this database knows several workspaces (${teams.join(', ')}): say which with --team`);
  const place = { teamId: teams[0] ?? null, channelId };
  if (sub === 'show') {
    const stored = await policies.show(place);
    if (!stored) return fail(`${channelId} has no research policy.`, 1);
    io.stdout.write(
      flags.json
        ? `${JSON.stringify(stored)}\n`
        : `${line(stored)}\n${JSON.stringify(stored.policy, null, 2)}\n`,
    );
    return 0;
  }
  let policy: ChannelPolicy | null = null;
  if (sub === 'set') {
    let raw: unknown;
    try {
      raw = JSON.parse(text!);
    } catch {
      return fail('the policy must be JSON, e.g. \'{"dailyBudgetUsd": 20}\'');
    }
    const parsed = ChannelPolicy.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(`the policy's ${issue.path.join('.') || 'JSON'}: ${issue.message}`);
    }
    policy = parsed.data;
  }
  const admin = { id: flags.actor, isAdmin: async () => true };
  const changed = await policies.change(admin, place, policy);
  if (!changed.done) return fail(changed.sentence, 1);
  io.stdout.write(
    changed.stored
      ? `Set. ${line(changed.stored)}\n`
      : `Cleared: research in ${channelId} is as the app is set up.\n`,
  );
  return 0;
}

function line(p: StoredPolicy): string {
  const where = p.teamId ? `${p.teamId}/${p.channelId}` : p.channelId;
  return `${where}  v${p.version}  ${describePolicy(p.policy)}  (set by ${p.updatedBy}, ${p.updatedAt.toISOString().slice(0, 16)})`;
}
