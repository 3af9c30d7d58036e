import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type CommandSpec, type Flag, json, out, yes } from './command-spec.js';
import { DELETE_COMMANDS } from './delete-command.js';
import { POLICY_COMMANDS } from './policy-command.js';
import { SCHEDULE_COMMANDS } from './schedule-command.js';

export type { CommandSpec, Flag } from './command-spec.js';

/** Every command, the one place its flags are declared: parsing and help both read it. */
export const COMMANDS: CommandSpec[] = [
  {
    name: 'ask',
    forms: [
      'ask "question" [--no-clarify | --answers TEXT] [--yes] [--file PATH]... [--out FILE] [--json] [--backend NAME]',
      'ask --background "question" [--backend NAME]',
      'ask --about ID "question"',
    ],
    about: [
      'Research a question: answer the clarifying questions at the prompt (or skip',
      'them with --no-clarify), review the plan and its estimate ("Start? [Y/n/e(dit)/t(ype)]",',
      'or --yes to start at once), follow live progress, then read the cited report:',
      'rendered for the terminal (paged through PAGER when long), or Markdown when',
      'stdout is a pipe or file; progress goes to stderr. Ctrl-C cancels and prints',
      'what was found. --background queues the question for the workers instead.',
      '--about asks a finished report a question, answered from its sources.',
    ],
    flags: {
      'no-clarify': { type: 'boolean', help: 'start without clarifying questions' },
      answers: {
        type: 'string',
        value: 'TEXT',
        help: 'the answer to the clarifying questions, if the model asks any (for scripts and --json)',
      },
      yes,
      out,
      json: json('the session id, every event and the result'),
      backend: {
        type: 'string',
        value: 'NAME',
        help: 'research this question with that backend (a RESEARCH_BACKEND value; a wrong one is answered with the list)',
      },
      background: { type: 'boolean', help: 'queue the question for the workers and return at once' },
      about: { type: 'string', value: 'ID', help: 'ask the finished report of session ID instead' },
      file: {
        type: 'string',
        value: 'PATH',
        multiple: true,
        help: 'a file research reads and cites (PDF, Word, Markdown, text, HTML, CSV); repeat for more',
      },
    },
    positionals: true,
  },
  {
    name: 'find',
    forms: ['find WORDS'],
    about: [
      'Finished reports matching the words (question, plan and report), best and',
      'newest first, with their ids for sessions show and ask --about.',
    ],
    flags: {},
    positionals: true,
  },
  {
    name: 'audit',
    forms: ['audit [--since 7d|DATE] [--channel ID] [--user ID] [--csv | --json]'],
    about: [
      'The audit trail, oldest first: sessions started, cancelled, steered and',
      'plan-edited, reports asked, schedules created, changed, paused, resumed and',
      'removed, files read for someone; who, when, where, and what it cost.',
      'Kept AUDIT_RETENTION_DAYS (365); never holds a secret or a page’s text.',
    ],
    flags: {
      since: { type: 'string', value: '7d|DATE', help: 'only actions since then (days, or a date)' },
      channel: { type: 'string', value: 'ID', help: 'only actions in this Slack channel' },
      user: {
        type: 'string',
        value: 'ID',
        help: 'only actions by this person (a Slack user id, or cli:NAME)',
      },
      csv: { type: 'boolean', help: 'print CSV, for a spreadsheet' },
      json: json('each action'),
    },
    positionals: false,
  },
  {
    name: 'usage',
    forms: ['usage'],
    about: [
      'Tokens and cost of your research (and of all research here), today and this',
      'month (UTC), with the daily caps when they are set.',
    ],
    flags: {},
    positionals: false,
  },
  {
    name: 'sessions',
    sub: 'list',
    forms: ['sessions list [--limit N] [--status STATUS] [--json]'],
    about: ['The latest sessions, newest first, with a header.'],
    flags: {
      limit: { type: 'string', value: 'N', help: 'how many to list (20 by default)' },
      status: {
        type: 'string',
        value: 'STATUS',
        help: 'only sessions with this status (or several, comma-separated: running,interrupted)',
      },
      json: json('each session'),
    },
    positionals: false,
  },
  {
    name: 'sessions',
    sub: 'show',
    forms: ['sessions show ID [--json] [--out FILE]'],
    about: [
      'A past session: its clarification, plan, report (rendered like ask), footer',
      'and the questions asked of it (the first 8 characters of the id are enough).',
      '--out report.pdf or report.docx writes the report as a PDF or Word file.',
    ],
    flags: {
      json: json('the session and its report'),
      out: {
        ...out,
        help: 'also write the report to FILE: Markdown, or a PDF or Word file by its .pdf or .docx name',
      },
    },
    positionals: true,
  },
  {
    name: 'resume',
    forms: ['resume ID [--yes] [--out FILE] [--json]'],
    about: [
      'Go on with an interrupted session (its terminal closed or its process died)',
      'from its last checkpoint, in the foreground, as ask does.',
    ],
    flags: {
      yes,
      out,
      json: json('every event and the result'),
      answers: {
        type: 'string',
        value: 'TEXT',
        help: 'the answer to clarifying questions still open (for scripts and --json)',
      },
    },
    positionals: true,
  },
  {
    name: 'cancel',
    forms: ['cancel ID'],
    about: [
      'Cancel a session: an interrupted one at once; one running elsewhere (another',
      'terminal, a worker) stops at its next step and keeps what was found.',
    ],
    flags: {},
    positionals: true,
  },
  {
    name: 'more',
    forms: ['more ID [--yes] [--out FILE] [--json]'],
    about: [
      'Research more: a new session that goes on from a finished report with',
      'everything it found, in the foreground (as [Research more] in Slack).',
    ],
    flags: {
      yes,
      out,
      json: json('every event and the result'),
    },
    positionals: true,
  },
  {
    name: 'serve',
    forms: ['serve'],
    about: [
      'Run the Slack app and a worker in one process: HTTP on PORT (/slack/events,',
      '/healthz), or Socket Mode when SLACK_APP_TOKEN is set. SIGTERM drains.',
    ],
    flags: {},
    positionals: false,
  },
  {
    name: 'worker',
    forms: ['worker'],
    about: [
      'Run queued research sessions until stopped (SIGTERM/Ctrl-C drains: running',
      'sessions are handed back at their last checkpoint for another worker).',
      'Start several against one Postgres to scale out.',
    ],
    flags: {},
    positionals: false,
  },
  {
    name: 'kb',
    sub: 'ingest',
    forms: ['kb ingest PATH...'],
    about: [
      'Add Markdown, text, HTML and PDF files (folders recursively) to the team',
      'knowledge base that research agents search with internal_search. Changed',
      'files are re-read, unchanged ones skipped.',
    ],
    flags: {},
    positionals: true,
  },
  {
    name: 'kb',
    sub: 'list',
    forms: ['kb list'],
    about: ['The documents in the knowledge base.'],
    flags: {},
    positionals: false,
  },
  {
    name: 'kb',
    sub: 'remove',
    forms: ['kb remove PATH...'],
    about: ['Remove a document, or every document under a folder.'],
    flags: {},
    positionals: true,
  },
  {
    name: 'mcp',
    sub: 'list',
    forms: ['mcp list'],
    about: ['The MCP servers research may use (MCP_SERVERS), their allowed tools, and whether they answer.'],
    flags: {},
    positionals: false,
  },
  {
    name: 'migrate',
    forms: ['migrate'],
    about: ['Apply database migrations (they also run at every start).'],
    flags: {},
    positionals: false,
  },
  {
    name: 'doctor',
    forms: ['doctor [--json]'],
    about: [
      'Check the configured models against their servers (GET /models): whether each',
      'is offered, its announced shutdown date, and where its price comes from. Exit 1',
      'when a model will not work.',
    ],
    flags: { json: json('each model') },
    positionals: false,
  },
  {
    name: 'where',
    forms: ['where'],
    about: ['Where sessions and the knowledge base are kept.'],
    flags: {},
    positionals: false,
  },
  ...SCHEDULE_COMMANDS,
  ...POLICY_COMMANDS,
  ...DELETE_COMMANDS,
];

/** Flags every command takes (read before the command's own). */
export const GLOBAL_FLAGS: Record<string, Flag> = {
  verbose: { type: 'boolean', help: 'informational logs and error details on stderr, one line each' },
  'no-color': { type: 'boolean', help: 'no colours or cursor movement (as NO_COLOR=1 does)' },
  help: { type: 'boolean', short: 'h', help: "this command's help" },
};

/** The spec a command line names (`sessions list` by its first two words), if any. */
export function specFor(command: string, sub?: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === command && (c.sub === undefined || c.sub === sub));
}

/**
 * The command's flags and positional arguments; an unknown flag (or a value
 * where none is taken) throws parseArgs' ERR_PARSE_ARGS_* error, which the
 * caller reports as a usage error (exit 2).
 */
export function parseCommand(spec: CommandSpec, args: string[]) {
  const options: ParseArgsConfig['options'] = {};
  for (const [name, flag] of Object.entries({ ...spec.flags, ...GLOBAL_FLAGS }))
    options[name] = {
      type: flag.type,
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  return parseArgs({ args, options, allowPositionals: spec.positionals, strict: true });
}
