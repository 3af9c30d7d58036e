import { COMMANDS, parseCommand, specFor } from './cli/commands.js';
import { commandHelp, usage } from './cli/help.js';
import type { Io } from './cli/io.js';
import { Interruption } from './cli/terminal-lease.js';
import { terminalLogger } from './cli/terminal-logger.js';
import type { Config } from './config/load-config.js';
import { withEnvFile } from './env-file.js';
import { currentSessionId } from './jobs/session-scope.js';
import { AppError, describeError } from './ports/errors.js';
import type { Logger } from './ports/logger.js';
import { secretsOf } from './redact-secrets.js';
import { VERSION } from './version.js';

/** Parses the command line and runs one command; returns the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io,
): Promise<number> {
  const [command, ...rest] = argv;
  // `help ask`, `ask --help`: one command's text.
  const topic =
    command === 'help' ? rest[0] : rest.some((a) => a === '--help' || a === '-h') ? command : undefined;
  const help = topic ? commandHelp(topic) : undefined;
  if (help) {
    io.stdout.write(help);
    return 0;
  }
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(usage(env));
    return command ? 0 : 2;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`deep-research ${VERSION}\n`);
    return 0;
  }
  const spec = specFor(command, rest[0]);
  if (!spec) {
    const forms = COMMANDS.filter((c) => c.name === command).map((c) => `"deep-research ${c.forms[0]}"`);
    io.stderr.write(
      forms.length
        ? `error: use ${forms.join(', ')}.\n`
        : `error: unknown command "${command}".\n\n${usage(env)}`,
    );
    return 2;
  }
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(spec, spec.sub ? rest.slice(1) : rest);
  } catch (error) {
    const first = (error as Error).message.split('. ')[0]!.replace(/\.$/, '');
    io.stderr.write(`error: ${first}. See deep-research help ${command}.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const flags = values as Record<string, string | boolean | undefined>;
  // NO_COLOR (no-color.org) or --no-color: no styling and no cursor movement anywhere.
  const plain = Boolean(flags['no-color'] || env.NO_COLOR?.trim());
  const cli = { ...io, plain };
  // The commands (and everything they use: models, Slack, the database) load only when one runs:
  // `--version` and `help` load none of it.
  const [{ runCommand }, { createLogger }] = await Promise.all([
    import('./cli-commands.js'),
    import('./logger.js'),
  ]);
  const cliLogger = (config: Config) =>
    config.logLevel
      ? createLogger(config.logLevel, secretsOf(env))
      : terminalLogger(io.stderr, { verbose: Boolean(flags.verbose), secrets: secretsOf(env) });
  try {
    return await runCommand(spec, flags, positionals, env, cli, cliLogger);
  } catch (error) {
    // Expected failures carry their own sentence; anything else is a bug worth its stack trace in the log.
    if (!(error instanceof AppError)) createLogger('error').error({ err: error }, 'command failed');
    io.stderr.write(`error: ${describeError(error)}\n`);
    // A script reading --json gets the failure on stdout too.
    if (flags.json) io.stdout.write(`${JSON.stringify({ type: 'error', message: describeError(error) })}\n`);
    return 1;
  }
}

/** How long a process whose terminal went away (or was told to stop) has to put its session to rest. */
const GRACE_MS = 1500;

/** Entry point for the bin: wires process streams and Ctrl-C (once: cancel cleanly; twice: exit now). */
export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping… (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('cancelled by user'));
  });
  // The terminal closed, or the process is told to stop: a session running here rests interrupted, resumable.
  process.on('SIGHUP', () => goingAway(new Interruption('the terminal closed'), 1));
  process.on('SIGTERM', () => goingAway(new Interruption('terminated'), 1));
  // The terminal is gone (EIO) or the reader went away (EPIPE, `sessions list | head -1`): nothing more can
  // be said to it, and nothing outlives it. Later writes to the dead stream fail again: those are ignored.
  let gone = false;
  const serving = ['serve', 'worker'].includes(process.argv.slice(2).find((a) => !a.startsWith('-')) ?? '');
  const goingAway = (why: Interruption, code: number) => {
    controller.abort(why);
    if (gone) return;
    gone = true;
    // A service drains at its own pace; a command gets two seconds to put its session to rest, then ends regardless.
    if (!serving) setTimeout(() => process.exit(code), GRACE_MS);
  };
  const streamGone = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code !== 'EPIPE' && code !== 'EIO' && code !== 'ERR_STREAM_DESTROYED') return false;
    goingAway(
      new Interruption(code === 'EPIPE' ? 'its reader went away' : 'the terminal closed'),
      code === 'EPIPE' ? 0 : 1,
    );
    return true;
  };
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error) => {
      if (!streamGone(error)) throw error;
    });
  // One request or session going wrong must not end a process serving many: log it (with the
  // session it came from, when it came from one) and carry on. Logging that fails itself is dropped:
  // it must never become the next uncaught error.
  const env = withEnvFile(process.env, process.cwd());
  let log: Logger | undefined;
  let logging = false;
  const carryOn = (what: string) => (error: unknown) => {
    if (streamGone(error) || logging || gone) return;
    logging = true;
    const sessionId = currentSessionId();
    void import('./logger.js')
      .then(({ createLogger }) => {
        log ??= createLogger('error', secretsOf(env));
        log.error({ err: error, sessionId }, `${what}; the process carries on`);
      })
      // The log's own stream failed: nothing more to do.
      .catch(() => {})
      .finally(() => {
        logging = false;
      });
  };
  process.on('unhandledRejection', carryOn('unhandled rejection'));
  process.on('uncaughtException', carryOn('uncaught exception'));
  const code = await runCli(process.argv.slice(2), env, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
  process.exit(code);
}
