import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { askCommand, type Io } from './cli/ask-command.js';
import { engineDeps, engineSettings } from './compose.js';
import { loadConfig } from './config.js';
import { describeError } from './engine/errors.js';
import { createLogger } from './logger.js';

const USAGE = `Usage: deep-research <command>

Commands:
  ask "question" [--no-clarify] [--out FILE] [--json]
      Research a question: answer the clarifying questions at the prompt (or skip
      them with --no-clarify), follow the plan and live progress, then read the
      cited report. --out writes the report as Markdown; --json prints events as
      JSON lines. Ctrl-C cancels and prints what was found.
  help
      Show this text.
`;

/** Parses the command line and runs one command; returns the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: Io,
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  try {
    if (command === 'ask') {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          'no-clarify': { type: 'boolean', default: false },
          out: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
      const config = loadConfig(env);
      const logger = createLogger(config.logLevel ?? 'warn');
      return await askCommand(
        { engine: engineDeps(config, logger), settings: engineSettings(config), newSessionId: randomUUID },
        {
          question: positionals.join(' '),
          clarify: !values['no-clarify'],
          out: values.out,
          json: values.json,
        },
        io,
      );
    }
    io.stderr.write(`error: unknown command "${command}".\n\n${USAGE}`);
    return 2;
  } catch (error) {
    io.stderr.write(`error: ${describeError(error)}\n`);
    return 1;
  }
}

/** Entry point for the bin: wires process streams and Ctrl-C (once: cancel cleanly; twice: exit now). */
export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nCancelling… (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('cancelled by user'));
  });
  const code = await runCli(process.argv.slice(2), process.env, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
  process.exit(code);
}
