/** Sentences for requests the bot turns down, each saying what to do instead. */

/** What to tell someone when the bot cannot post where they asked. */
export const CANNOT_POST: Record<string, string> = {
  not_in_channel: 'I am not a member of this channel: invite me with `/invite @Deep Research` and try again.',
  channel_not_found:
    'I cannot see this conversation (a private channel or a DM I am not part of): invite me, or DM me the question instead.',
  is_archived: 'This channel is archived, so I cannot post here: ask in another channel or DM me.',
};

export function tooManySessions(active: number, limit: number): string | undefined {
  if (active < limit) return undefined;
  return `You already have ${active} research ${active === 1 ? 'session' : 'sessions'} running (the limit is ${limit}): wait for one to finish, or cancel one with \`/research cancel\`.`;
}

export const THREAD_BUSY =
  'Research is already under way in this thread: wait for its report, or cancel it first.';

export const THREAD_DELIVERING =
  "This thread's report is still being delivered to Slack: ask again once it is complete in the thread.";

export const POLICY_CHANGED =
  "This channel's research policy changed while your request was decided: ask again to research under the new one.";
