import { readFileSync } from 'node:fs';

export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export const USAGE = `Usage: deep-research <command>

Commands:
  ask "question" [--no-clarify] [--yes] [--out FILE] [--json] [--backend NAME]
  ask --background "question" [--backend NAME]
      Research a question: answer the clarifying questions at the prompt (or skip
      them with --no-clarify), review the plan and its estimate ("Start? [Y/n/e(dit)]",
      or --yes to start at once), follow live progress, then read the
      cited report: rendered for the terminal (paged through PAGER when long), or
      Markdown when stdout is a pipe or file; progress goes to stderr. --out writes
      the report as Markdown; --json prints events as JSON lines. Ctrl-C cancels
      and prints what was found. --background queues the question for the workers
      instead (no clarification) and returns at once. --backend agents or
      deep-research-api researches this question that way (RESEARCH_BACKEND).
  ask --about ID "question"
      Ask a finished report a question: answered in seconds from the report and
      the sources its research read, citing them in the report's numbering, with
      no new research. When they do not answer it, says so (exit 1).
  find WORDS
      Finished reports matching the words (question, plan and report), best and
      newest first, with their ids for sessions show and ask --about.
  usage
      Tokens and cost of your research (and of all research here), today and this
      month (UTC), with the daily caps when they are set.
  sessions list
      The latest sessions, newest first.
  sessions show ID
      A past session with its plan, report and the questions asked of it (the first
      8 characters of the id are enough).
  serve
      Run the Slack app and a worker in one process: HTTP on PORT (/slack/events,
      /healthz), or Socket Mode when SLACK_APP_TOKEN is set. SIGTERM drains.
  worker
      Run queued research sessions until stopped (SIGTERM/Ctrl-C drains: running
      sessions are handed back at their last checkpoint for another worker).
      Start several against one Postgres to scale out.
  kb ingest PATH...
      Add Markdown, text, HTML and PDF files (folders recursively) to the team
      knowledge base that research agents search with internal_search. Changed
      files are re-read, unchanged ones skipped.
  kb list
      The documents in the knowledge base.
  kb remove PATH...
      Remove a document, or every document under a folder.
  migrate
      Apply database migrations (they also run at every start).
  where
      Where sessions and the knowledge base are kept.
  help, --version
      Show this text, or the version.

--verbose (any command): informational logs and error details on stderr, one line
each. By default the CLI shows warnings only, and a failure as one "error:" line;
LOG_LEVEL switches to JSON logs.

Sessions are kept in Postgres (DATABASE_URL) or, when it is unset, in an embedded
database under DATA_DIR (default: your data directory, ~/.local/share/deep-research;
"deep-research where" prints it). A .env file in the working directory is read first.
`;

/** One command's lines of the usage (all its forms: `kb ingest`, `kb list`…), or undefined for no such command. */
export function commandHelp(command: string): string | undefined {
  const lines = USAGE.split('\n');
  const entries: string[][] = [];
  for (const line of lines.slice(lines.indexOf('Commands:') + 1)) {
    if (/^ {2}\S/.test(line)) entries.push([line]);
    else if (/^ {6}\S/.test(line)) entries.at(-1)?.push(line);
    else if (!line.trim() && entries.length) break;
  }
  const own = entries.filter((e) => e[0]!.trim().split(/[\s,]/)[0] === command);
  return own.length
    ? `Usage: deep-research ${command}\n\n${own.map((e) => e.join('\n')).join('\n')}\n`
    : undefined;
}
