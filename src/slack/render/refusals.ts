/** Sentences for requests the bot turns down, each saying what to do instead. */

/** What to tell someone when the bot cannot post where they asked. */
export const CANNOT_POST: Record<string, string> = {
  not_in_channel: 'I am not a member of this channel: invite me with `/invite @Deep Research` and try again.',
  channel_not_found:
    'I cannot see this conversation (a private channel or a DM I am not part of): invite me, or DM me the question instead.',
  is_archived: 'This channel is archived, so I cannot post here: ask in another channel or DM me.',
};

export function questionTooLong(question: string, max: number): string | undefined {
  if (question.length <= max) return undefined;
  return `Your question is ${question.length.toLocaleString('en-US')} characters long; the limit is ${max.toLocaleString('en-US')}. Shorten it, and add details when I ask my clarifying questions.`;
}

export function tooManySessions(active: number, limit: number): string | undefined {
  if (active < limit) return undefined;
  return `You already have ${active} research ${active === 1 ? 'session' : 'sessions'} running (the limit is ${limit}): wait for one to finish, or cancel one with \`/research cancel\`.`;
}
