import type { App, BlockAction, OverflowAction } from '@slack/bolt';
import type { SessionRow, SessionStore } from '../../sessions/records/session-store.js';
import type { Deleted, DeletionActor, ReportDeletion } from '../../sessions/report-deletion.js';
import { whenDelivered } from '../../sessions/when-delivered.js';
import type { SlackApi } from '../api/slack-api.js';
import { ACTION } from '../render/messages.js';
import type { FeatureCommand, FeatureContext, SlackFeature } from '../slack-feature.js';

const USAGE =
  'Say `/research delete ID` (the id in a report’s footer, at least 8 characters) to delete one of your reports, or, as a workspace admin, `/research delete all @person` to delete everything a person asked.';

/** A deletion's outcome, as the person who asked for it reads it. */
export function deletedText(deleted: Deleted): string {
  switch (deleted.kind) {
    case 'deleted':
      return ':wastebasket: Deleted. Its canvas, file and messages are being removed from Slack; its sources and answers are gone.';
    case 'missing':
      return 'There is no such research.';
    case 'already':
      return 'That research was already deleted.';
    case 'not_yours':
      return `Only <@${deleted.row.requester}> (who asked) or a workspace admin can delete this report.`;
    case 'unfinished':
      return 'That research is still running or being delivered: cancel it (or wait for its report), then delete it.';
  }
}

/**
 * Deleting reports from Slack: [Delete report…] in a report's menu (Slack
 * asks to confirm), `/research delete ID`, and an admin's `/research delete
 * all @person` for everything a person asked (a leaver).
 */
export function deletionFeature(deps: {
  deletion: ReportDeletion;
  sessions: Pick<SessionStore, 'get' | 'findByIdPrefix'>;
  api: SlackApi;
  /** Asks a running session to stop (the same path as [Cancel]). */
  cancel: (row: SessionRow, by: string) => Promise<void>;
  deliver: () => void;
}): SlackFeature {
  const { deletion, sessions, api } = deps;
  const actor = (userId: string): DeletionActor => ({ id: userId, isAdmin: () => api.isAdmin(userId) });

  async function command(c: FeatureCommand): Promise<string> {
    const all = /^all\s+<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(c.rest);
    if (all) {
      const done = await deletion.deleteAllOf(all[1]!, actor(c.userId), (row) => deps.cancel(row, c.userId));
      if (done === 'not_admin') return 'Only a workspace admin can delete everything a person asked.';
      deps.deliver();
      const running = done.unfinished.length
        ? ` ${done.unfinished.length} still running ${done.unfinished.length === 1 ? 'was' : 'were'} asked to stop: say this again once ${done.unfinished.length === 1 ? 'it has' : 'they have'} stopped to delete ${done.unfinished.length === 1 ? 'it' : 'them'} too.`
        : '';
      return `:wastebasket: Deleted ${done.deleted} ${done.deleted === 1 ? 'report' : 'reports'} <@${all[1]}> asked; what they showed is being removed from Slack.${running}`;
    }
    if (!/^[0-9a-f-]{8,36}$/i.test(c.rest)) return USAGE;
    const found = (await sessions.findByIdPrefix(c.rest)).filter((r) => r.teamId === c.teamId);
    if (found.length > 1) return 'Several reports start with that id: give more of it.';
    if (!found[0]) return deletedText({ kind: 'missing' });
    await whenDelivered(sessions, found[0]);
    const deleted = await deletion.delete(found[0].id, actor(c.userId));
    if (deleted.kind === 'deleted') deps.deliver();
    return deletedText(deleted);
  }

  function register(app: App, { log, sorry }: FeatureContext): void {
    app.action<BlockAction>(ACTION.deleteReport, async ({ ack, body, action, respond }) => {
      await ack();
      const say = (text: string) =>
        respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => {});
      const sessionId = (action as OverflowAction).selected_option?.value ?? '';
      try {
        const row = await sessions.get(sessionId);
        const teamId = body.user.team_id ?? body.team?.id;
        if (!row || (row.teamId && row.teamId !== teamId))
          return void (await say(deletedText({ kind: 'missing' })));
        // Clicked as soon as the summary showed: the report's last writes are waited for, then it goes.
        await whenDelivered(sessions, row);
        const deleted = await deletion.delete(row.id, actor(body.user.id));
        if (deleted.kind === 'deleted') deps.deliver();
        await say(deletedText(deleted));
      } catch (err) {
        log.error({ err, sessionId }, 'deleting a report failed');
        await say(sorry);
      }
    });
  }

  return { name: 'deletion', subcommands: [{ phrase: 'delete', takesText: true, run: command }], register };
}
