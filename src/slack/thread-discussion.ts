import { mentionedUsers, plainMarkup } from '../ports/plain-markup.js';
import type { SlackApi } from './api/slack-api.js';
import type { SlackFileObject } from './api/slack-files.js';

/** How much of a thread research is given: the latest messages before the question, within a size. */
export const DISCUSSION_LIMITS = { messages: 40, chars: 12_000, perMessage: 2_000 };

export interface Discussion {
  /** One line (or paragraph) per message, oldest first: "Name: text". */
  text: string;
  messages: number;
}

/** A message of the thread as Slack returns it (conversations.replies). */
export interface RepliedMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  bot_profile?: { name?: string };
  username?: string;
  subtype?: string;
  text?: string;
  files?: SlackFileObject[];
}

/** One thread's messages, oldest first (this thread only): read once for its discussion and its files. */
export async function readThread(
  api: SlackApi,
  place: { channel: string; threadTs: string },
): Promise<RepliedMessage[]> {
  const result = (await api.call(
    'conversations.replies',
    () => api.client.conversations.replies({ channel: place.channel, ts: place.threadTs, limit: 200 }),
    place.channel,
  )) as { messages?: RepliedMessage[] };
  return result.messages ?? [];
}

/**
 * The discussion a question asked inside an existing thread comes from: the
 * thread's messages before it, each attributed by display name, with
 * mentions and links turned into plain text so nothing the model repeats can
 * ping anyone. The newest are kept when the thread is longer than the
 * limits. Undefined when there is nothing before the question.
 */
export async function threadDiscussion(
  api: SlackApi,
  messages: RepliedMessage[],
  beforeTs: string,
  limits = DISCUSSION_LIMITS,
): Promise<Discussion | undefined> {
  const before = messages.filter(
    (m) => m.ts && Number(m.ts) < Number(beforeTs) && m.text?.trim() && !SKIPPED.has(m.subtype ?? ''),
  );
  if (before.length === 0) return undefined;
  const names = new Map<string, string>();
  const nameOf = async (user: string) => {
    if (!names.has(user)) names.set(user, await api.userName(user).catch(() => 'someone'));
    return names.get(user)!;
  };
  const lines: string[] = [];
  let size = 0;
  for (const m of before.slice(-limits.messages).reverse()) {
    const who = m.user ? await nameOf(m.user) : (m.bot_profile?.name ?? m.username ?? 'a bot');
    let text = await plainText(m.text!, nameOf);
    if (text.length > limits.perMessage) text = `${text.slice(0, limits.perMessage)}…`;
    const line = `${who}: ${text}`;
    if (size + line.length > limits.chars) break;
    lines.unshift(line);
    size += line.length + 1;
  }
  return lines.length ? { text: lines.join('\n'), messages: lines.length } : undefined;
}

/** The files shared in the thread up to and with the question. */
export function filesUpTo(messages: RepliedMessage[], ts: string): SlackFileObject[] {
  return messages.filter((m) => m.ts && Number(m.ts) <= Number(ts)).flatMap((m) => m.files ?? []);
}

/** Joins, leaves and other notices carry no discussion. */
const SKIPPED = new Set([
  'channel_join',
  'channel_leave',
  'group_join',
  'group_leave',
  'bot_add',
  'bot_remove',
]);

/** Slack's markup as plain words: `<@U1>` → `@Ann`, `<!here>` → `@-here`, `<#C1|general>` → `#general`, links → label (url). */
async function plainText(text: string, nameOf: (user: string) => Promise<string>): Promise<string> {
  const users = mentionedUsers(text);
  const named = new Map(await Promise.all(users.map(async (u) => [u, await nameOf(u)] as const)));
  return plainMarkup(text, (u) => named.get(u) ?? 'someone')
    .replace(/\s+\n/g, '\n')
    .trim();
}
