/** One flag of a command: how parseArgs reads it and what `help COMMAND` says of it. */
export interface Flag {
  type: 'boolean' | 'string';
  short?: string;
  /** The value's placeholder in help (`--out FILE`). */
  value?: string;
  /** Given more than once, every value counts. */
  multiple?: boolean;
  help: string;
}

/** A command (or a sub-command: `sessions list`) with its synopsis, description and flags. */
export interface CommandSpec {
  name: string;
  sub?: string;
  /** Synopsis lines after `deep-research` (one per form). */
  forms: string[];
  about: string[];
  flags: Record<string, Flag>;
  /** Takes positional arguments (a question, words, paths, an id). */
  positionals: boolean;
}

export const json = (what: string): Flag => ({
  type: 'boolean',
  help: `print ${what} as JSON (one object per line)`,
});
export const out: Flag = {
  type: 'string',
  value: 'FILE',
  help: 'also write the report as a Markdown document to FILE',
};
export const yes: Flag = { type: 'boolean', short: 'y', help: 'start the plan without asking' };
