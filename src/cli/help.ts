import { defaultDataDir } from '../data-dir.js';
import { COMMANDS, type CommandSpec, type Flag, GLOBAL_FLAGS } from './commands.js';

const entry = (spec: CommandSpec) =>
  [...spec.forms.map((f) => `  ${f}`), ...spec.about.map((l) => `      ${l}`)].join('\n');

const flagLines = (flags: Record<string, Flag>) =>
  Object.entries(flags).map(([name, f]) => {
    const left = `${f.short ? `-${f.short}, ` : ''}--${name}${f.value ? ` ${f.value}` : ''}`;
    return `  ${left.padEnd(22)} ${f.help}`;
  });

/** The whole help, naming the data folder this environment uses (DATA_DIR, else XDG_DATA_HOME's or the default). */
export const usage = (env: Record<string, string | undefined>) => `Usage: deep-research <command>

Commands:
${COMMANDS.map(entry).join('\n')}
  help [COMMAND], --version
      Show this text (or one command's, with every flag), or the version.

Every command takes:
${flagLines(GLOBAL_FLAGS).join('\n')}
By default the CLI shows warnings only, and a failure as one "error:" line;
LOG_LEVEL switches to JSON logs.

Sessions are kept in Postgres (DATABASE_URL) or, when it is unset, in an embedded
database in ${env.DATA_DIR?.trim() || defaultDataDir(env)}
(DATA_DIR sets another folder; "deep-research where" prints it). A .env file in the
working directory is read first.
`;

/** One command's help (all its forms: `kb ingest`, `kb list`…) with every flag, or undefined for no such command. */
export function commandHelp(command: string): string | undefined {
  const own = COMMANDS.filter((c) => c.name === command);
  if (!own.length) return undefined;
  const parts = own.map((spec) => {
    const flags = flagLines(spec.flags);
    return flags.length
      ? `${entry(spec)}\n\n  Options:\n${flags.map((l) => `  ${l}`).join('\n')}`
      : entry(spec);
  });
  return `Usage: deep-research ${command}\n\n${parts.join('\n\n')}\n\n  Every command also takes --verbose, --no-color and --help.\n`;
}
