import type { OutboxRow, OutboxStore } from '../../sessions/records/outbox-store.js';
import type { SessionStore, SlackMessageRef } from '../../sessions/records/session-store.js';
import { type AgentStatusPayload, setAgentStatus } from '../api/slack-agents.js';
import type { SlackApi } from '../api/slack-api.js';
import { createCanvas, deleteCanvas, shareCanvas } from '../api/slack-canvases.js';
import { SlackCallError } from '../api/slack-errors.js';
import { startStream, stopStream } from '../api/slack-streams.js';
import type { SlackMessage } from '../render/messages.js';
import type {
  CanvasPayload,
  DeletePayload,
  PostPayload,
  ReactPayload,
  UpdatePayload,
  UploadPayload,
} from '../thread/session-thread.js';
import { ThreadMessages } from '../thread/thread-roles.js';
import { featureRefused } from './delivery-failures.js';
import type { EditScheduler } from './edit-scheduler.js';

export interface PerformContext {
  api: SlackApi;
  edits: EditScheduler;
  sessions: SessionStore;
  outbox: OutboxStore;
  /** The requester's DM channel with the app. */
  dmChannel: (user: string) => Promise<string>;
  adopted: () => void;
  /** A kind of write Slack refused here, once per process and reason: the fallback it got instead. */
  fellBack: (what: string, code: string) => void;
}

/** Where what an intent wrote now is, for posts and files (recorded by role). */
export type Where = SlackMessageRef;

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
      const { when, stream } = row.payload as PostPayload;
      const place = when ? await reportPlace(ctx, row.sessionId) : undefined;
      // The other way of showing the report was taken: this one is not needed.
      if (place && place.canvas !== (when === 'canvas')) return undefined;
      const message = await withReportLink(ctx, row.sessionId, (row.payload as PostPayload).message, place);
      const tag = { session_id: row.sessionId, key: row.key };
      if (row.uncertain) {
        const found = (await ctx.api.findOwn(channel, row.threadTs, oldest, { tag })) ?? undefined;
        // A stream carries no metadata: it is the app's one untagged message in the thread that no role owns.
        const streamed = !found && stream ? await findStream(ctx, row, channel, oldest) : undefined;
        if (found || streamed) {
          ctx.adopted();
          return { channelId: channel, ts: (found ?? streamed)!, ...(streamed ? { streaming: true } : {}) };
        }
      }
      if (stream && row.threadTs) {
        try {
          const ts = await startStream(ctx.api, channel, row.threadTs, stream.chunks, stream.recipient);
          return { channelId: channel, ts, streaming: true };
        } catch (error) {
          if (!(error instanceof SlackCallError && featureRefused(error.code))) throw error;
          ctx.fellBack('a streamed progress message; it is an edited message instead', error.code);
        }
      }
      try {
        return { channelId: channel, ts: await ctx.api.post(channel, message, row.threadTs, tag) };
      } catch (error) {
        // A workspace or client without charts or data tables gets their content as text: not a failure.
        if (!(message.fallback && error instanceof SlackCallError && error.code === 'invalid_blocks'))
          throw error;
        ctx.fellBack('charts and data tables; they were sent as text', error.code);
        const { fallback, ...rest } = message;
        return {
          channelId: channel,
          ts: await ctx.api.post(channel, { ...rest, ...fallback }, row.threadTs, tag),
        };
      }
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
        const bytes = Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
        fileId = await ctx.api.uploadBytes(file.filename, bytes);
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
        canvasId = await createCanvas(ctx.api, title, markdown);
        await ctx.outbox.saveProgress(row.id, { fileId: canvasId });
      }
      const to = channel.startsWith('D') ? { user: row.requester } : { channel };
      try {
        await shareCanvas(ctx.api, canvasId, to);
      } catch (error) {
        // Not shareable here: the report goes to the thread as messages, and the canvas away.
        if (error instanceof SlackCallError) await deleteCanvas(ctx.api, canvasId).catch(() => undefined);
        throw error;
      }
      return { channelId: channel, fileId: canvasId };
    }
    case 'update': {
      const payload = row.payload as UpdatePayload;
      const ref = payload.ts ? undefined : (await ctx.sessions.slackMessages(row.sessionId)).get(row.role);
      const ts = payload.ts ?? ref?.ts;
      // The message was never posted (its post failed for good): there is nothing to edit.
      if (!ts) return undefined;
      if (ref?.streaming && payload.stop) {
        try {
          await stopStream(ctx.api, channel, ts, payload.stop);
          return undefined;
        } catch (error) {
          // Slack ended the stream already (the person pressed Stop, or this stop landed before a crash): the
          // message is edited instead.
          if (!(error instanceof SlackCallError && STREAM_ENDED.has(error.code))) throw error;
        }
      }
      const message = await withReportLink(ctx, row.sessionId, payload.message);
      await ctx.edits.deliver({ team: row.teamId, channel, ts, sessionId: row.sessionId }, message);
      return undefined;
    }
    case 'agent_status':
      try {
        await setAgentStatus(ctx.api, channel, row.payload as AgentStatusPayload);
      } catch (error) {
        // Not an agent app here (the manifest's agent_view), or not this conversation: the thread is as before.
        if (!(error instanceof SlackCallError && featureRefused(error.code, 'agent_status'))) throw error;
        ctx.fellBack('an agent session status; the thread goes on without one', error.code);
      }
      return undefined;
    case 'delete': {
      // Each is harmless when already gone: a retried removal changes nothing.
      const gone = row.payload as DeletePayload;
      if ('canvas' in gone) await deleteCanvas(ctx.api, gone.canvas);
      else if ('file' in gone) await ctx.api.deleteFile(gone.file);
      else await ctx.api.remove(channel, gone.ts);
      return undefined;
    }
    case 'react':
    case 'unreact': {
      const { name, ts } = row.payload as ReactPayload;
      if (row.op === 'react') await ctx.api.react(channel, ts, name);
      else await ctx.api.unreact(channel, ts, name);
      return undefined;
    }
  }
}

const STREAM_ENDED = new Set(['message_not_in_streaming_state', 'stopped_by_user']);

/** The app's own message in the thread that carries no tag and that no role of this session owns. */
async function findStream(ctx: PerformContext, row: OutboxRow, channel: string, oldest: string) {
  const owned = [...(await ctx.sessions.slackMessages(row.sessionId)).values()].map((r) => r.ts);
  const { botId } = await ctx.api.identity();
  return ctx.api.findOwn(channel, row.threadTs, oldest, {
    untagged: { botId, except: new Set(owned.filter((ts): ts is string => Boolean(ts))) },
  });
}

/**
 * `<report-link|label>`: this session's report; `<report-link:ID|label>`:
 * session ID's (an earlier run's); with the ` · ` before it, if any.
 */
const PLACEHOLDER = /( · )?<report-link(?::([0-9a-f-]{36}))?\|([^>]*)>/g;

type ReportPlace = Awaited<ReturnType<typeof reportPlace>>;

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
async function withReportLink(
  ctx: PerformContext,
  sessionId: string,
  message: SlackMessage,
  known?: ReportPlace,
) {
  const json = JSON.stringify(message);
  if (!json.includes('<report-link')) return message;
  const links = new Map<string, string | undefined>();
  for (const [, , other] of json.matchAll(PLACEHOLDER)) {
    const id = other ?? sessionId;
    if (links.has(id)) continue;
    const place = id === sessionId && known ? known : await reportPlace(ctx, id);
    links.set(
      id,
      place.canvasId
        ? await ctx.api.workspaceUrl({ canvas: place.canvasId })
        : place.first?.ts
          ? await ctx.api.permalink(place.first.channelId, place.first.ts)
          : undefined,
    );
  }
  // A link that cannot be made leaves its label, or goes with its separator when it trails a line.
  const replaced = json.replace(PLACEHOLDER, (_, separator = '', other?: string, label = '') => {
    const link = links.get(other ?? sessionId);
    if (link) return `${separator}<${link}|${label}>`;
    return separator ? '' : label;
  });
  return JSON.parse(replaced) as SlackMessage;
}
