import type { OutboxRow, OutboxStore } from '../../store/outbox-store.js';
import type { SessionStore } from '../../store/session-store.js';
import type { EditScheduler } from '../publish/edit-scheduler.js';
import type { SlackMessage } from '../render/messages.js';
import { type SlackApi, SlackCallError } from '../slack-api.js';
import type {
  CanvasPayload,
  PostPayload,
  ReactPayload,
  UpdatePayload,
  UploadPayload,
} from '../thread/session-thread.js';
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
      const { when } = row.payload as PostPayload;
      // The other way of showing the report was taken: this one is not needed.
      if (when && (await reportPlace(ctx, row.sessionId)).canvas !== (when === 'canvas')) return undefined;
      const message = await withReportLink(ctx, row.sessionId, (row.payload as PostPayload).message);
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
    case 'canvas': {
      const { title, markdown } = row.payload as CanvasPayload;
      // A create whose answer was lost leaves a canvas shared with no one: nobody sees it twice.
      let canvasId = row.progress?.fileId;
      if (!canvasId) {
        canvasId = await ctx.api.createCanvas(title, markdown);
        await ctx.outbox.saveProgress(row.id, { fileId: canvasId });
      }
      const to = channel.startsWith('D') ? { user: row.requester } : { channel };
      try {
        await ctx.api.shareCanvas(canvasId, to);
      } catch (error) {
        // Not shareable here: the report goes to the thread as messages, and the canvas away.
        if (error instanceof SlackCallError) await ctx.api.deleteCanvas(canvasId).catch(() => undefined);
        throw error;
      }
      return { channelId: channel, fileId: canvasId };
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

const PLACEHOLDER = /<report-link\|([^>]*)>/g;

/** Where the report is: its canvas, else its first message (either may not exist). */
async function reportPlace(ctx: PerformContext, sessionId: string) {
  const owned = new ThreadMessages(await ctx.sessions.slackMessages(sessionId));
  const canvas = owned.get({ kind: 'canvas' });
  return {
    canvas: Boolean(canvas?.fileId),
    canvasId: canvas?.fileId,
    first: owned.get({ kind: 'report', part: 0 }),
  };
}

/** Resolves the report-link placeholders to the canvas or the report's first message, or leaves their labels. */
async function withReportLink(ctx: PerformContext, sessionId: string, message: SlackMessage) {
  const json = JSON.stringify(message);
  if (!json.includes('<report-link|')) return message;
  const place = await reportPlace(ctx, sessionId);
  const link = place.canvasId
    ? await ctx.api.canvasUrl(place.canvasId)
    : place.first?.ts
      ? await ctx.api.permalink(place.first.channelId, place.first.ts)
      : undefined;
  const replaced = link
    ? json.replace(PLACEHOLDER, `<${link}|$1>`)
    : json.replace(/ · <report-link\|[^>]*>/g, '').replace(PLACEHOLDER, '$1');
  return JSON.parse(replaced) as SlackMessage;
}
