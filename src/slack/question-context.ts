import type { Logger } from '../ports/logger.js';
import type { SharedFiles } from '../ports/research.js';
import type { SlackApi } from './api/slack-api.js';
import { sortSharedFiles } from './shared-files.js';
import { type Discussion, filesUpTo, readThread, threadDiscussion } from './thread-discussion.js';

/** What a new question brings from where it was asked: the discussion before it, and the files shared. */
export interface QuestionContext {
  discussion?: Discussion;
  files?: SharedFiles;
}

/**
 * The context of a question that starts research: inside an existing thread,
 * its earlier messages; in the thread (or on the question itself), the files
 * shared up to it. The thread is read once, and only when there is something
 * to find; a thread that cannot be read is logged and research goes on.
 */
export async function questionContext(
  api: SlackApi,
  message: { channelId: string; ts: string; threadTs?: string; hasFiles?: boolean },
  maxFileBytes: number,
  log: Logger,
): Promise<QuestionContext> {
  if (!message.threadTs && !message.hasFiles) return {};
  try {
    const thread = await readThread(api, {
      channel: message.channelId,
      threadTs: message.threadTs ?? message.ts,
    });
    const discussion = message.threadTs ? await threadDiscussion(api, thread, message.ts) : undefined;
    const shared = sortSharedFiles(filesUpTo(thread, message.ts), maxFileBytes, api.client.slackApiUrl);
    const files = shared.given.length || shared.skipped.length ? shared : undefined;
    return { ...(discussion ? { discussion } : {}), ...(files ? { files } : {}) };
  } catch (err) {
    log.warn({ err, channel: message.channelId }, 'could not read the thread; research goes on without it');
    return {};
  }
}
