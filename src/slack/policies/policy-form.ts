import type { KnownBlock } from '@slack/web-api';
import type { PolicyChoices } from '../../sessions/policies/channel-policies.js';
import { ChannelPolicy, defaultPolicy } from '../../sessions/policies/channel-policy.js';

/** The policy form's callback_id. */
export const POLICY_FORM = 'channel_policy_form';

const text = (t: string) => ({ type: 'plain_text' as const, text: t });
const option = (value: string, label: string) => ({ text: text(label), value });

/**
 * `/research settings` (and an admin's [Edit policy] in App Home): a
 * channel's policy as a form, filled with the one in force. A manager who is
 * not an admin sees who manages it but cannot change that.
 */
export function policyModal(
  channelId: string,
  current: ChannelPolicy | null,
  choices: PolicyChoices,
  asAdmin: boolean,
) {
  const p = current ?? defaultPolicy();
  const sources = [
    option('web', 'Web search and reading pages'),
    option('knowledgeBase', 'The knowledge base'),
    option('threadFiles', 'Files shared in the thread'),
    ...choices.mcpServers.map((name) => option(`mcp:${name}`, `MCP server ${name}`)),
  ];
  const on = sources.filter(({ value }) =>
    value.startsWith('mcp:')
      ? p.sources.mcpServers === 'all' || p.sources.mcpServers.includes(value.slice(4))
      : p.sources[value as 'web' | 'knowledgeBase' | 'threadFiles'],
  );
  const backends = choices.backends.map((b) => option(b, b));
  const allowedBackends = backends.filter((b) => !p.backends || p.backends.includes(b.value));
  const starters = [
    option('everyone', 'Everyone in the channel'),
    option('named', 'Only the people and groups below'),
    option('admins', 'Only workspace admins'),
  ];
  const review = [option('default', "The app's default"), option('on', 'On'), option('off', 'Off')];
  const input = (id: string, label: string, element: Record<string, unknown>, hint?: string) => ({
    type: 'input',
    block_id: id,
    optional: true,
    label: text(label),
    element: { action_id: id, ...element },
    ...(hint ? { hint: text(hint) } : {}),
  });
  const blocks: Record<string, unknown>[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `Research in <#${channelId}>: who may start it, what it reads and spends.`,
      },
    },
    {
      ...input('starters', 'Who may start research here', {
        type: 'radio_buttons',
        options: starters,
        initial_option: starters.find((o) => o.value === p.starters.kind),
      }),
      optional: false,
    },
    input('users', 'People who may', {
      type: 'multi_users_select',
      ...(p.starters.kind === 'named' && p.starters.users.length ? { initial_users: p.starters.users } : {}),
    }),
    input(
      'groups',
      'User groups who may',
      {
        type: 'plain_text_input',
        ...(p.starters.kind === 'named' && p.starters.groups.length
          ? { initial_value: p.starters.groups.join(', ') }
          : {}),
      },
      'User group ids (S…), separated by commas',
    ),
    input('sources', 'Sources research may read', {
      type: 'checkboxes',
      options: sources,
      ...(on.length ? { initial_options: on } : {}),
    }),
    ...(backends.length > 1
      ? [
          input('backends', 'Backends research may use', {
            type: 'checkboxes',
            options: backends,
            ...(allowedBackends.length ? { initial_options: allowedBackends } : {}),
          }),
        ]
      : []),
    input(
      'run_budget',
      'Budget per research (USD)',
      {
        type: 'number_input',
        is_decimal_allowed: true,
        min_value: '0.01',
        ...(p.runBudgetUsd !== undefined ? { initial_value: String(p.runBudgetUsd) } : {}),
      },
      'Empty: no limit of its own',
    ),
    input(
      'daily_budget',
      'Budget per day for this channel (USD)',
      {
        type: 'number_input',
        is_decimal_allowed: true,
        min_value: '0.01',
        ...(p.dailyBudgetUsd !== undefined ? { initial_value: String(p.dailyBudgetUsd) } : {}),
      },
      'Research and questions asked of reports here, everyone together, per UTC day',
    ),
    {
      ...input('review', 'Plan review before research starts', {
        type: 'static_select',
        options: review,
        initial_option: review.find((o) => o.value === (p.planReview ?? 'default')),
      }),
      optional: false,
    },
    input('schedules', 'Schedules', {
      type: 'checkboxes',
      options: [option('allowed', 'Scheduled research may post here')],
      ...(p.schedules ? { initial_options: [option('allowed', 'Scheduled research may post here')] } : {}),
    }),
    asAdmin
      ? input(
          'managers',
          'Who else may change this policy',
          {
            type: 'multi_users_select',
            ...(p.managers.length ? { initial_users: p.managers } : {}),
          },
          'Besides workspace admins',
        )
      : {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: `Also managed by ${p.managers.map((m) => `<@${m}>`).join(', ') || 'nobody'}; only a workspace admin changes who.`,
            },
          ],
        },
  ];
  return {
    type: 'modal' as const,
    callback_id: POLICY_FORM,
    private_metadata: JSON.stringify({ channelId, managers: asAdmin ? undefined : p.managers }),
    title: text('Research policy'),
    submit: text('Save'),
    close: text('Cancel'),
    // Built as plain objects (Slack's element types are a union too wide to check field by field).
    blocks: blocks as unknown as KnownBlock[],
  };
}

type Values = Record<
  string,
  Record<
    string,
    {
      selected_option?: { value: string } | null;
      selected_options?: { value: string }[];
      selected_users?: string[];
      value?: string | null;
    }
  >
>;

/** The form as submitted: the policy, or the field and sentence to show next to it. */
export function readPolicyForm(
  values: Values,
  metadata: string,
  choices: PolicyChoices,
): { channelId: string; policy: ChannelPolicy } | { field: string; error: string } {
  const { channelId, managers } = JSON.parse(metadata) as { channelId: string; managers?: string[] };
  const v = (id: string) => values[id]?.[id];
  const checked = (id: string) => (v(id)?.selected_options ?? []).map((o) => o.value);
  const money = (id: string): number | undefined | 'bad' => {
    const raw = v(id)?.value?.trim();
    if (!raw) return undefined;
    const n = Number(raw);
    return Number.isFinite(n) && n > 0 ? n : 'bad';
  };
  const run = money('run_budget');
  if (run === 'bad') return { field: 'run_budget', error: 'A budget is an amount in USD above 0.' };
  const daily = money('daily_budget');
  if (daily === 'bad') return { field: 'daily_budget', error: 'A budget is an amount in USD above 0.' };
  const groups = (v('groups')?.value ?? '')
    .split(/[\s,]+/)
    .map((g) => g.trim())
    .filter(Boolean);
  const bad = groups.find((g) => !/^S[A-Z0-9]{2,}$/.test(g));
  if (bad)
    return { field: 'groups', error: `${bad} is not a user group id (they start with S, e.g. S0123ABCD).` };
  const sources = checked('sources');
  const mcp = sources.filter((s) => s.startsWith('mcp:')).map((s) => s.slice(4));
  const kind = v('starters')?.selected_option?.value ?? 'everyone';
  const review = v('review')?.selected_option?.value;
  const backends = values.backends ? checked('backends') : undefined;
  if (backends?.length === 0) return { field: 'backends', error: 'Choose at least one backend.' };
  const parsed = ChannelPolicy.safeParse({
    starters: kind === 'named' ? { kind, users: v('users')?.selected_users ?? [], groups } : { kind },
    ...(backends && backends.length < choices.backends.length ? { backends } : {}),
    sources: {
      web: sources.includes('web'),
      knowledgeBase: sources.includes('knowledgeBase'),
      threadFiles: sources.includes('threadFiles'),
      mcpServers: mcp.length === choices.mcpServers.length ? 'all' : mcp,
    },
    ...(run !== undefined ? { runBudgetUsd: run } : {}),
    ...(daily !== undefined ? { dailyBudgetUsd: daily } : {}),
    ...(review === 'on' || review === 'off' ? { planReview: review } : {}),
    schedules: checked('schedules').includes('allowed'),
    managers: managers ?? v('managers')?.selected_users ?? [],
  });
  if (!parsed.success) return { field: 'starters', error: parsed.error.issues[0]?.message ?? 'not a policy' };
  return { channelId, policy: parsed.data };
}
