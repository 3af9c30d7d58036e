import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Logger } from '../../ports/logger.js';
import type { ExportFormat } from '../../ports/report-export.js';
import type { OutboxStore } from '../../sessions/records/outbox-store.js';
import type { SessionRow, SessionStore } from '../../sessions/records/session-store.js';
import type { ReportExports } from '../../sessions/report-exports.js';
import { mayRead } from '../../sessions/report-visibility.js';
import type { ChannelMembers } from '../channel-members.js';
import { ACTION } from '../render/messages.js';
import type { FeatureCommand, FeatureContext, SlackFeature } from '../slack-feature.js';
import { SessionThread } from '../thread/session-thread.js';
import { roleKey } from '../thread/thread-roles.js';

const USAGE =
  'Say `/research export ID pdf` or `/research export ID docx` (the id in a report’s footer, at least 8 characters).';
const NAMES: Record<ExportFormat, string> = { pdf: 'PDF', docx: 'Word file' };

/**
 * A report as a PDF or Word file in its thread: [Download as PDF] and
 * [Download as Word] under it, and `/research export ID pdf|docx`. Only for
 * someone who may read the report; the file is built once per version and
 * uploaded through the outbox once.
 */
export function exportsFeature(deps: {
  exports: ReportExports;
  sessions: Pick<SessionStore, 'get' | 'findByIdPrefix' | 'slackMessages'>;
  outbox: Pick<OutboxStore, 'add'>;
  members: Pick<ChannelMembers, 'has'>;
  deliver: () => void;
  log: Logger;
}): SlackFeature {
  const { exports, sessions, members } = deps;

  async function exportTo(
    row: SessionRow,
    format: ExportFormat,
    who: { userId: string; teamId: string },
  ): Promise<string> {
    const canRead = (channel: string, user: string) => members.has(channel, user, { fresh: true });
    if (
      row.origin !== 'slack' ||
      !row.channelId ||
      !row.threadTs ||
      !(await mayRead(row, who, canRead, deps.log))
    )
      return 'You can export a report only where it is shown to you.';
    const done = await exports.file(row, format);
    if ('refused' in done) return done.refused;
    const { version } = done.file;
    const already = (await sessions.slackMessages(row.id)).get(roleKey({ kind: 'export', format, version }));
    if (already) return `The ${NAMES[format]} is in the thread already.`;
    await deps.outbox.add(row.id, [SessionThread.of(row).exportFile(format, version, done.file)]);
    deps.deliver();
    return `:page_facing_up: The ${NAMES[format]} (${kb(done.file.bytes.length)}) is on its way to the thread.`;
  }

  async function command(c: FeatureCommand): Promise<string> {
    const [id = '', format = ''] = c.rest.split(/\s+/);
    if (!/^[0-9a-f-]{8,36}$/i.test(id) || (format !== 'pdf' && format !== 'docx')) return USAGE;
    const found = (await sessions.findByIdPrefix(id)).filter((r) => r.teamId === c.teamId);
    if (found.length !== 1)
      return found.length
        ? 'Several reports start with that id: give more of it.'
        : 'There is no such research.';
    return exportTo(found[0]!, format, c);
  }

  function register(app: App, { log, sorry }: FeatureContext): void {
    for (const [action, format] of [
      [ACTION.exportPdf, 'pdf'],
      [ACTION.exportDocx, 'docx'],
    ] as const) {
      app.action<BlockAction>(action, async ({ ack, body, action: clicked, respond }) => {
        await ack();
        const say = (text: string) =>
          respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => {});
        const sessionId = (clicked as ButtonAction).value ?? '';
        try {
          const row = await sessions.get(sessionId);
          const teamId = body.user.team_id ?? body.team?.id ?? '';
          // The report must be shown where the click came from: a button naming another conversation's report exports nothing.
          if (!row || row.channelId !== body.channel?.id)
            return void (await say('You can export a report only where it is shown to you.'));
          await say(await exportTo(row, format, { userId: body.user.id, teamId }));
        } catch (err) {
          log.error({ err, sessionId }, 'exporting a report failed');
          await say(sorry);
        }
      });
    }
  }

  return {
    name: 'exports',
    subcommands: [{ phrase: 'export', takesText: true, run: command }],
    register,
  };
}

function kb(bytes: number): string {
  return bytes >= 1_048_576
    ? `${(bytes / 1_048_576).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
