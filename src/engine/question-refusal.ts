// Tab, line feed and carriage return are text; every other C0 control, DEL and the C1 range are not, nor
// are the bidirectional embeddings, overrides and isolates, which make text read differently than it is
// stored (a question shown reversed in the root message and the canvas title). Right-to-left scripts need none.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

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
