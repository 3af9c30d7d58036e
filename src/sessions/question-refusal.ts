import { CONTROL } from '../ports/control-characters.js';

/**
 * Why a question cannot be researched as written, in one sentence saying
 * what to do, or undefined when it can. Checked before anything is posted or
 * stored, in Slack and in the terminal alike.
 */
export function questionRefusal(question: string, maxChars: number): string | undefined {
  if (CONTROL.test(question))
    return 'Your question contains control characters (invisible characters such as NUL or a text-direction override), which I cannot research: retype it or paste it as plain text.';
  if (question.length > maxChars)
    return `Your question is ${question.length.toLocaleString('en-US')} characters long; the limit is ${maxChars.toLocaleString('en-US')}. Shorten it, and add details when I ask my clarifying questions.`;
  return undefined;
}
