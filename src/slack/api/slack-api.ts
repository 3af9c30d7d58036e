import {
  type AuthTestResponse,
  type ViewsOpenArguments,
  WebAPIRateLimitedError,
  type WebClient,
} from '@slack/web-api';
import { sleep } from '../../http/retry-delay.js';
import { type Metrics, noMetrics } from '../../metrics/metrics.js';
import type { SlackMessage } from '../render/messages.js';
import { SlackCallError, SlackRateLimited, translate } from './slack-errors.js';
import { SlackRateLimits } from './slack-rate-limits.js';

/** Tags every message the app posts, so a post whose answer was lost can be found in the thread. */
export const METADATA_EVENT = 'deep_research_message';
export interface MessageTag {
  session_id: string;
  key: string;
}

interface HistoryMessage {
  ts: string;
  bot_id?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
  files?: { id: string }[];
}

/**
 * The Web API calls the app makes. Every call waits for the process's budget
 * for its method (SlackRateLimits); a 429 pauses that budget for Retry-After
 * and is then waited out here (listeners) or handed back (the dispatcher).
 */
type UserInfo = { is_admin?: boolean; is_owner?: boolean; name?: string; real_name?: string } & {
  profile?: { display_name?: string };
};

export class SlackApi {
  private auth?: Promise<AuthTestResponse>;

  constructor(
    readonly client: WebClient,
    readonly limits: SlackRateLimits = new SlackRateLimits(),
    private readonly options: { waitOn429: boolean; attempts: number } = { waitOn429: true, attempts: 4 },
    private readonly metrics: Metrics = noMetrics,
  ) {}

  async post(channel: string, message: SlackMessage, threadTs?: string, tag?: MessageTag): Promise<string> {
    const result = await this.call(
      'chat.postMessage',
      () =>
        this.client.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          ...(tag ? { metadata: { event_type: METADATA_EVENT, event_payload: { ...tag } } } : {}),
          unfurl_links: false,
          unfurl_media: false,
        }),
      channel,
    );
    return result.ts as string;
  }

  /** An edit for the scheduler: a 429 comes back as SlackRateLimited so the newest content can be sent later. */
  async updateOnce(channel: string, ts: string, message: SlackMessage): Promise<void> {
    await this.once('chat.update', () =>
      this.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks }),
    );
  }

  /** One attempt outside the method budgets (the caller keeps its own); a 429 comes back as SlackRateLimited. */
  async once<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await this.counted(method, run);
    } catch (error) {
      if (error instanceof WebAPIRateLimitedError) throw new SlackRateLimited(error.retryAfter * 1000);
      throw translate(error, method);
    }
  }

  /** Every call to Slack passes here, so /metrics sees each one and each 429. */
  private async counted<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.metrics.slackCall(method, 'ok');
      return result;
    } catch (error) {
      this.metrics.slackCall(method, error instanceof WebAPIRateLimitedError ? 'rate_limited' : 'error');
      throw error;
    }
  }

  async remove(channel: string, ts: string): Promise<void> {
    await this.harmless(['message_not_found'], () =>
      this.call('chat.delete', () => this.client.chat.delete({ channel, ts })),
    );
  }

  /** One of the app's own files (a deleted report's report.md); already gone is done. */
  async deleteFile(file: string): Promise<void> {
    await this.harmless(['file_not_found', 'file_deleted'], () =>
      this.call('files.delete', () => this.client.files.delete({ file })),
    );
  }

  async ephemeral(channel: string, user: string, message: SlackMessage, threadTs?: string): Promise<void> {
    await this.call('chat.postEphemeral', () =>
      this.client.chat.postEphemeral({
        channel,
        user,
        text: message.text,
        blocks: message.blocks,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      }),
    );
  }

  /** A direct-message thread's status line ("is searching …"); empty clears it. */
  async setStatus(channel: string, threadTs: string, status: string): Promise<void> {
    await this.call('assistant.threads.setStatus', () =>
      this.client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status }),
    );
  }

  async react(channel: string, ts: string, name: string): Promise<void> {
    await this.harmless(['already_reacted'], () =>
      this.call('reactions.add', () => this.client.reactions.add({ channel, timestamp: ts, name })),
    );
  }

  async unreact(channel: string, ts: string, name: string): Promise<void> {
    await this.harmless(['no_reaction'], () =>
      this.call('reactions.remove', () => this.client.reactions.remove({ channel, timestamp: ts, name })),
    );
  }

  async permalink(channel: string, ts: string): Promise<string | undefined> {
    const result = await this.call('chat.getPermalink', () =>
      this.client.chat.getPermalink({ channel, message_ts: ts }),
    );
    return (result as { permalink?: string }).permalink;
  }

  /** The app's direct-message channel with a person. */
  async openDm(user: string): Promise<string> {
    const result = await this.call('conversations.open', () =>
      this.client.conversations.open({ users: user }),
    );
    return (result as { channel?: { id?: string } }).channel?.id as string;
  }

  /** Step one of files v2: the bytes go up and get a file id; nothing is shared yet. */
  async uploadBytes(filename: string, content: string | Buffer): Promise<string> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const ticket = (await this.call('files.getUploadURLExternal', () =>
      this.client.files.getUploadURLExternal({ filename, length: bytes.length }),
    )) as { upload_url: string; file_id: string };
    const response = await fetch(ticket.upload_url, { method: 'POST', body: bytes });
    if (!response.ok) throw new Error(`Slack file upload answered HTTP ${response.status}`);
    return ticket.file_id;
  }

  /** Step two: share the uploaded file in the thread. */
  async shareFile(fileId: string, title: string, channel: string, threadTs?: string): Promise<void> {
    await this.call('files.completeUploadExternal', () =>
      this.client.files.completeUploadExternal({
        files: [{ id: fileId, title }],
        channel_id: channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      }),
    );
  }

  /**
   * Looks for a message the app already posted (a request whose answer was
   * lost): by its tag, or by a file it shares. In a thread, or at the top of
   * a conversation since `oldest`.
   */
  async findOwn(
    channel: string,
    threadTs: string | undefined,
    oldest: string,
    match: { tag?: MessageTag; fileId?: string; untagged?: { botId: string; except: Set<string> } },
  ): Promise<string | undefined> {
    const result = (await this.call('conversations.history', () =>
      threadTs
        ? this.client.conversations.replies({
            channel,
            ts: threadTs,
            oldest,
            include_all_metadata: true,
            limit: 200,
          })
        : this.client.conversations.history({ channel, oldest, include_all_metadata: true, limit: 200 }),
    )) as { messages?: HistoryMessage[] };
    const found = (result.messages ?? []).find((m) => {
      const p = m.metadata?.event_payload;
      if (match.tag && m.metadata?.event_type === METADATA_EVENT) {
        return p?.session_id === match.tag.session_id && p?.key === match.tag.key;
      }
      if (match.untagged) {
        const { botId, except } = match.untagged;
        return (
          m.bot_id === botId && !m.metadata && !m.files?.length && m.ts !== threadTs && !except.has(m.ts)
        );
      }
      return Boolean(match.fileId && m.files?.some((f) => f.id === match.fileId));
    });
    return found?.ts;
  }

  /** An address in the workspace: a canvas (/docs/TEAM/CANVAS) or a thread (/archives/CHANNEL/pTS). */
  async workspaceUrl(to: { canvas: string } | { channel: string; ts: string }): Promise<string> {
    const { url, team_id } = await this.authTest();
    const base = String(url ?? '').replace(/\/?$/, '/');
    if ('canvas' in to) return `${base}docs/${String(team_id ?? '')}/${to.canvas}`;
    return `${base}archives/${to.channel}/p${to.ts.replace('.', '')}`;
  }

  /** Who the token belongs to: the bot's user and bot ids, and the workspace it is installed in. */
  async identity(): Promise<{ botUserId: string; botId: string; teamId?: string }> {
    const result = await this.authTest();
    return {
      botUserId: String(result.user_id ?? ''),
      botId: String(result.bot_id ?? ''),
      ...(result.team_id ? { teamId: result.team_id } : {}),
    };
  }

  /** `auth.test`, asked once per client (a failure is not kept). */
  private authTest(): Promise<AuthTestResponse> {
    this.auth ??= this.call('auth.test', () => this.client.auth.test()).catch((error) => {
      this.auth = undefined;
      throw error;
    });
    return this.auth;
  }

  /** A modal, opened from a click (`trigger_id` lives 3 s). */
  async openView(triggerId: string, view: ViewsOpenArguments['view']): Promise<void> {
    await this.call('views.open', () => this.client.views.open({ trigger_id: triggerId, view }));
  }

  /** Workspace admins and owners may cancel anyone's research. */
  async isAdmin(user: string): Promise<boolean> {
    const info = await this.userInfo(user);
    return Boolean(info?.is_admin || info?.is_owner);
  }

  /** How Slack shows a person (display name, else real name), to name them without a mention that pings. */
  async userName(user: string): Promise<string> {
    const info = await this.userInfo(user);
    return info?.profile?.display_name || info?.real_name || info?.name || user;
  }

  /** Who is in a user group (usergroups.users.list), to decide a channel policy that names the group. */
  async groupMembers(group: string): Promise<string[]> {
    const result = await this.call('usergroups.users.list', () =>
      this.client.usergroups.users.list({ usergroup: group }),
    );
    return (result as { users?: string[] }).users ?? [];
  }

  private async userInfo(user: string) {
    const result = await this.call('users.info', () => this.client.users.info({ user }));
    return (result as { user?: UserInfo }).user;
  }

  private async harmless(codes: string[], run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof SlackCallError && codes.includes(error.code))) throw error;
    }
  }

  /** One Web API call on its method's budget; a 429 is waited out or handed back as the client was built to. */
  async call<T>(method: string, run: () => Promise<T>, channel?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      await this.limits.take(method, channel);
      try {
        return await this.counted(method, run);
      } catch (error) {
        if (!(error instanceof WebAPIRateLimitedError)) throw translate(error, method);
        const ms = error.retryAfter * 1000;
        this.limits.pause(method, channel, ms);
        if (!this.options.waitOn429 || attempt >= this.options.attempts) throw new SlackRateLimited(ms);
        await sleep(ms);
      }
    }
  }
}
