import type { OutboxRow, OutboxStore } from '../../store/outbox-store.js';
import type { SessionStore } from '../../store/session-store.js';
import type { EditScheduler } from '../publish/edit-scheduler.js';
import { REPORT_LINK, type SlackMessage } from '../render/messages.js';
import type { SlackApi } from '../slack-api.js';
import type { PostPayload, ReactPayload, UpdatePayload, UploadPayload } from '../thread/session-thread.js';
import { ThreadMessages } from '../thread/thread-roles.js';

export interface PerformContext {
  api: SlackApi;
  edits: EditScheduler;
  sessions: SessionStore;
  outbox: OutboxStore;
  /** The requester's DM channel with the app. */
  dmChannel: (user: string) => Promise<string>;
  adopted: () => void;
}

/** Where what an intent wrote now is, for posts and files (recorded by role). */
export interface Where {
  channelId: string;
  ts?: string;
  fileId?: string;
}

/**
 * Sends one intent to Slack. A post or share whose earlier attempt may have
 * landed (`row.uncertain`, as it was before this claim) is first looked for
 * in the conversation (by its metadata tag or file id) and adopted if found:
 * a crash or a lost answer never shows a message twice.
 */
export async function performIntent(ctx: PerformContext, row: OutboxRow): Promise<Where | undefined> {
  const channel = row.channelId === 'dm' ? await ctx.dmChannel(row.requester) : row.channelId;
  // A little before the intent was recorded: the clocks of Slack and the database differ.
  const oldest = (row.createdAt.getTime() / 1000 - 300).toFixed(6);
  switch (row.op) {
    case 'post': {
      const { message } = row.payload as PostPayload;
      const tag = { session_id: row.sessionId, key: row.key };
      if (row.uncertain) {
        const ts = await ctx.api.findOwn(channel, row.threadTs, oldest, { tag });
        if (ts) {
          ctx.adopted();
          return { channelId: channel, ts };
        }
      }
      return { channelId: channel, ts: await ctx.api.post(channel, message, row.threadTs, tag) };
    }
    case 'upload': {
      const file = row.payload as UploadPayload;
      let fileId = row.progress?.fileId;
      if (fileId && row.uncertain) {
        if (await ctx.api.findOwn(channel, row.threadTs, oldest, { fileId })) {
          ctx.adopted();
          return { channelId: channel, fileId };
        }
      }
      if (!fileId) {
        fileId = await ctx.api.uploadBytes(file.filename, file.content);
        await ctx.outbox.saveProgress(row.id, { fileId });
      }
      await ctx.api.shareFile(fileId, file.title, channel, row.threadTs);
      return { channelId: channel, fileId };
    }
    case 'update': {
      const payload = row.payload as UpdatePayload;
      const ts = payload.ts ?? (await ctx.sessions.slackMessages(row.sessionId)).get(row.role)?.ts;
      // The message was never posted (its post failed for good): there is nothing to edit.
      if (!ts) return undefined;
      const message = await withReportLink(ctx, row.sessionId, payload.message);
      await ctx.edits.deliver({ team: row.teamId, channel, ts, sessionId: row.sessionId }, message);
      return undefined;
    }
    case 'delete':
      await ctx.api.remove(channel, (row.payload as { ts: string }).ts);
      return undefined;
    case 'react':
    case 'unreact': {
      const { name, ts } = row.payload as ReactPayload;
      if (row.op === 'react') await ctx.api.react(channel, ts, name);
      else await ctx.api.unreact(channel, ts, name);
      return undefined;
    }
  }
}

/** Resolves the report-link placeholder to the report's first message, or drops the link if there is none. */
async function withReportLink(ctx: PerformContext, sessionId: string, message: SlackMessage) {
  const json = JSON.stringify(message);
  if (!json.includes(REPORT_LINK)) return message;
  const first = new ThreadMessages(await ctx.sessions.slackMessages(sessionId)).get({
    kind: 'report',
    part: 0,
  });
  const link = first?.ts ? await ctx.api.permalink(first.channelId, first.ts) : undefined;
  const replaced = link
    ? json.replaceAll(REPORT_LINK, `<${link}|read the report>`)
    : json.replaceAll(` · ${REPORT_LINK}`, '');
  return JSON.parse(replaced) as SlackMessage;
}
