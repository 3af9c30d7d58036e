import {
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebClient,
  type WebClientOptions,
} from '@slack/web-api';
import { sleep } from '../http/retry-delay.js';
import type { SlackMessage } from './render/messages.js';

/**
 * Web API client settings for the app and for workers: 429s are handed back
 * to us instead of pausing the client's whole queue, and transient failures
 * get two quick retries rather than the default half hour of them.
 */
export function webClientOptions(apiUrl?: string): WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
  };
}

export function slackApiFor(botToken: string, apiUrl?: string): SlackApi {
  return new SlackApi(new WebClient(botToken, webClientOptions(apiUrl)));
}

/** Slack said no: `code` is Slack's own error string (`not_in_channel`, `msg_too_long`…). */
export class SlackCallError extends Error {
  constructor(
    readonly code: string,
    method: string,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}

/** A 429 on an edit: the caller decides when to try again, with the latest content. */
export class SlackRateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limited for ${retryAfterMs} ms`);
  }
}

/**
 * The Web API calls the app makes, over one WebClient built with
 * `rejectRateLimitedCalls`, so a 429 never silently blocks the client's whole
 * queue for half an hour: posts wait out Retry-After themselves (a few times),
 * edits hand it to the edit scheduler.
 */
export class SlackApi {
  constructor(
    readonly client: WebClient,
    private readonly options: { postAttempts: number } = { postAttempts: 4 },
  ) {}

  async post(channel: string, message: SlackMessage, threadTs?: string): Promise<string> {
    const result = await this.withRateLimitRetry('chat.postMessage', () =>
      this.client.chat.postMessage({
        channel,
        text: message.text,
        blocks: message.blocks,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
    return result.ts as string;
  }

  /** A one-off edit: a 429 is waited out here. */
  async update(channel: string, ts: string, message: SlackMessage): Promise<void> {
    await this.withRateLimitRetry('chat.update', () =>
      this.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks }),
    );
  }

  /** An edit for the scheduler: a 429 comes back as SlackRateLimited so the newest content can be sent later. */
  async updateOnce(channel: string, ts: string, message: SlackMessage): Promise<void> {
    try {
      await this.client.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
    } catch (error) {
      if (error instanceof WebAPIRateLimitedError) throw new SlackRateLimited(error.retryAfter * 1000);
      throw translate(error, 'chat.update');
    }
  }

  async remove(channel: string, ts: string): Promise<void> {
    await this.call('chat.delete', () => this.client.chat.delete({ channel, ts }), ['message_not_found']);
  }

  async ephemeral(channel: string, user: string, message: SlackMessage, threadTs?: string): Promise<void> {
    await this.withRateLimitRetry('chat.postEphemeral', () =>
      this.client.chat.postEphemeral({
        channel,
        user,
        text: message.text,
        blocks: message.blocks,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      }),
    );
  }

  async react(channel: string, ts: string, name: string): Promise<void> {
    await this.call('reactions.add', () => this.client.reactions.add({ channel, timestamp: ts, name }), [
      'already_reacted',
    ]);
  }

  async unreact(channel: string, ts: string, name: string): Promise<void> {
    await this.call(
      'reactions.remove',
      () => this.client.reactions.remove({ channel, timestamp: ts, name }),
      ['no_reaction'],
    );
  }

  async permalink(channel: string, ts: string): Promise<string | undefined> {
    const result = await this.call('chat.getPermalink', () =>
      this.client.chat.getPermalink({ channel, message_ts: ts }),
    );
    return (result as { permalink?: string } | undefined)?.permalink;
  }

  async upload(
    channel: string,
    threadTs: string,
    filename: string,
    content: string,
    title: string,
  ): Promise<void> {
    await this.withRateLimitRetry('files.uploadV2', () =>
      this.client.filesUploadV2({
        channel_id: channel,
        thread_ts: threadTs,
        file: Buffer.from(content, 'utf8'),
        filename,
        title,
      }),
    );
  }

  /** Workspace admins and owners may cancel anyone's research. */
  async isAdmin(user: string): Promise<boolean> {
    const result = await this.call('users.info', () => this.client.users.info({ user }));
    const info = (result as { user?: { is_admin?: boolean; is_owner?: boolean } } | undefined)?.user;
    return Boolean(info?.is_admin || info?.is_owner);
  }

  private async call<T>(
    method: string,
    run: () => Promise<T>,
    harmless: string[] = [],
  ): Promise<T | undefined> {
    try {
      return await this.withRateLimitRetry(method, run);
    } catch (error) {
      if (error instanceof SlackCallError && harmless.includes(error.code)) return undefined;
      throw error;
    }
  }

  private async withRateLimitRetry<T>(method: string, run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (error instanceof WebAPIRateLimitedError && attempt < this.options.postAttempts) {
          await sleep(error.retryAfter * 1000);
          continue;
        }
        throw translate(error, method);
      }
    }
  }
}

function translate(error: unknown, method: string): unknown {
  if (error instanceof WebAPIPlatformError) return new SlackCallError(String(error.data.error), method);
  if (error instanceof WebAPIRateLimitedError) return new SlackCallError('ratelimited', method);
  return error;
}
