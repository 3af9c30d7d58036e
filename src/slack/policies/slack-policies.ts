import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { ChannelPolicies, PolicyActor } from '../../sessions/policies/channel-policies.js';
import { describePolicy } from '../../sessions/policies/channel-policy.js';
import type { SlackApi } from '../api/slack-api.js';
import { EDIT_POLICY } from '../render/admin-home.js';
import { noticeMessage } from '../render/messages.js';
import type { FeatureCommand, FeatureContext, SlackFeature } from '../slack-feature.js';
import { POLICY_FORM, policyModal, readPolicyForm } from './policy-form.js';

const NOT_YOURS =
  "Only a workspace admin, or someone an admin named to manage this channel's research policy, can change it.";

/**
 * Channel policies from Slack: `/research settings` shows the channel's
 * policy and, to a workspace admin or one of its managers, opens the form;
 * `/research settings clear` puts the channel back to the app as set up;
 * an admin's Home lists the policies with [Edit policy].
 */
export function policiesFeature(deps: { policies: ChannelPolicies; api: SlackApi }): SlackFeature {
  const { policies, api } = deps;
  const { choices } = policies;
  const actor = (userId: string): PolicyActor => ({ id: userId, isAdmin: () => api.isAdmin(userId) });

  async function settings(c: FeatureCommand): Promise<string | undefined> {
    const place = { teamId: c.teamId, channelId: c.channelId };
    if (c.channelId.startsWith('D'))
      return 'Research policies are set per channel: say `/research settings` in the channel whose research you want to set.';
    if (c.rest === 'clear') {
      const cleared = await policies.change(actor(c.userId), place, null);
      return cleared.done
        ? 'This channel has no research policy now: research here works as the app is set up.'
        : cleared.sentence;
    }
    if (c.rest)
      return "Say `/research settings` to see or change this channel's research policy, or `/research settings clear`.";
    const current = await policies.show(place);
    const shown = current
      ? `This channel's research policy: ${describePolicy(current.policy)} (set by <@${current.updatedBy}>).`
      : 'This channel has no research policy: research here works as the app is set up.';
    const may = await policies.mayChange(actor(c.userId), place);
    if (!may) return `${shown} ${NOT_YOURS}`;
    if (!c.triggerId) return shown;
    await api.openView(
      c.triggerId,
      policyModal(c.channelId, current?.policy ?? null, choices, may === 'admin'),
    );
    return undefined;
  }

  function register(app: App, { log, sorry }: FeatureContext): void {
    app.view(POLICY_FORM, async ({ ack, body, view }) => {
      const userId = body.user.id;
      const teamId = body.user.team_id ?? body.team?.id ?? '';
      try {
        const read = readPolicyForm(view.state.values as never, view.private_metadata, choices);
        if ('error' in read)
          return void (await ack({ response_action: 'errors', errors: { [read.field]: read.error } }));
        const place = { teamId, channelId: read.channelId };
        const changed = await policies.change(actor(userId), place, read.policy);
        if (!changed.done)
          return void (await ack({ response_action: 'errors', errors: { starters: changed.sentence } }));
        await ack();
        const said = `Saved. <#${read.channelId}>'s research policy: ${describePolicy(read.policy)}.`;
        await api
          .ephemeral(read.channelId, userId, noticeMessage(said))
          .catch(async () => api.post(await api.openDm(userId), noticeMessage(said)))
          .catch((err) => log.warn({ err, user: userId }, 'could not confirm a saved policy'));
      } catch (err) {
        log.error({ err, user: userId }, 'saving a channel policy failed');
        await ack({ response_action: 'errors', errors: { starters: sorry } }).catch(() => {});
      }
    });
    app.action<BlockAction>(EDIT_POLICY, async ({ ack, body, action, respond }) => {
      await ack();
      const channelId = (action as ButtonAction).value ?? '';
      const teamId = body.user.team_id ?? body.team?.id ?? '';
      try {
        const place = { teamId, channelId };
        const may = await policies.mayChange(actor(body.user.id), place);
        if (!may)
          return void (await respond({ response_type: 'ephemeral', text: NOT_YOURS }).catch(() => {}));
        const current = await policies.show(place);
        await api.openView(
          body.trigger_id,
          policyModal(channelId, current?.policy ?? null, choices, may === 'admin'),
        );
      } catch (err) {
        log.warn({ err, channelId }, 'could not open the policy form');
      }
    });
  }

  return {
    name: 'policies',
    subcommands: [{ phrase: 'settings', takesText: true, run: settings }],
    register,
  };
}
