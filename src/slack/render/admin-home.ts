import type { KnownBlock } from '@slack/types';
import { describePolicy, type StoredPolicy } from '../../sessions/policies/channel-policy.js';
import type { AuditRow } from '../../sessions/records/audit-store.js';
import { button, context } from './messages.js';
import { safeText } from './mrkdwn.js';

/** What only a workspace admin's Home shows. */
export interface AdminContent {
  /** The audit trail's newest actions in this workspace. */
  audit?: AuditRow[];
  /** The workspace's channel policies. */
  policies?: StoredPolicy[];
}

/** [Edit policy] next to a channel's policy (opens the same form as `/research settings`). */
export const EDIT_POLICY = 'channel_policy_edit';
const MAX_POLICIES = 10;

/** An admin's part of Home: the channels' policies, then the newest actions. */
export function adminBlocks(admin: AdminContent): KnownBlock[] {
  return [
    ...(admin.policies ? policyBlocks(admin.policies) : []),
    ...(admin.audit ? auditBlocks(admin.audit) : []),
  ];
}

function policyBlocks(policies: StoredPolicy[]): KnownBlock[] {
  const blocks: KnownBlock[] = [
    { type: 'divider' },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Channel policies* (admins; set one with `/research settings` in the channel)',
      },
    },
  ];
  if (!policies.length)
    blocks.push(context('No channel has a policy: research works as the app is set up everywhere.'));
  for (const p of policies.slice(0, MAX_POLICIES)) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `<#${p.channelId}>: ${safeText(describePolicy(p.policy))}` },
      accessory: button('Edit policy', EDIT_POLICY, p.channelId),
    });
  }
  if (policies.length > MAX_POLICIES)
    blocks.push(context(`…and ${policies.length - MAX_POLICIES} more (\`deep-research policy list\`).`));
  return blocks;
}

/** What an action is called in the admins' list. */
const DONE: Record<AuditRow['action'], string> = {
  'session.started': 'started research',
  'session.cancelled': 'cancelled research',
  'session.steered': 'steered research',
  'session.plan_edited': 'edited a plan',
  'session.deleted': 'deleted a report',
  'report.asked': 'asked a report',
  'schedule.created': 'scheduled research',
  'schedule.changed': 'changed a schedule',
  'schedule.paused': 'paused a schedule',
  'schedule.resumed': 'resumed a schedule',
  'schedule.removed': 'removed a schedule',
  'file.read': 'had a file read',
  'policy.changed': "changed a channel's research policy",
};

/** The audit trail's newest actions (admins only), newest first: who, what, where, what it cost. */
function auditBlocks(rows: AuditRow[]): KnownBlock[] {
  const lines = [...rows].reverse().map((r) => {
    const who = /^[UW][A-Z0-9]+$/.test(r.actor) ? `<@${r.actor}>` : safeText(r.actor);
    const where = r.channelId
      ? r.channelId.startsWith('D')
        ? ' in a direct message'
        : ` in <#${r.channelId}>`
      : '';
    const cost = r.costUsd ? ` · $${r.costUsd.toFixed(2)}` : '';
    return `${r.at.toISOString().slice(0, 16).replace('T', ' ')} · ${who} ${DONE[r.action]}${where}${cost}`;
  });
  return [
    { type: 'divider' },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: '*Recent actions* (admins; all of them: `deep-research audit`)' },
    },
    lines.length
      ? { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } }
      : context('None yet.'),
  ];
}
