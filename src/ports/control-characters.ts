// Tab, line feed and carriage return are text; every other C0 control, DEL and the C1 range are not, nor
// are the bidirectional embeddings, overrides and isolates, which make text read differently than it is
// stored (a question shown reversed in the root message and the canvas title). Right-to-left scripts need none.
const CONTROLS =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]';

/** Matches an invisible character a person's text should not carry (NUL, which Postgres cannot store, say). */
export const CONTROL = new RegExp(CONTROLS);

/**
 * A person's reply, note or edit without those characters: they are
 * invisible, so dropping them loses nothing the person meant, and keeping
 * them would make the database refuse the text.
 */
export function withoutControls(text: string): string {
  return text.replace(new RegExp(CONTROLS, 'g'), '');
}
