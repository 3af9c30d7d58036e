import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';

const run = async (argv: string[], env: Record<string, string | undefined>) => {
  const streams = io();
  const code = await runCli(argv, env, streams);
  return { code, out: streams.out.text, err: streams.err.text };
};

describe('the command line, before anything runs', () => {
  it('names every missing or invalid setting in one message', async () => {
    const missing = await run(['ask', 'How do tides work?'], { SEARCH_PROVIDER: 'brave' });
    expect(missing).toEqual({
      code: 1,
      out: '',
      err:
        'error: 2 settings need fixing:\n' +
        '  - OPENAI_API_KEY is not set: set it to your OpenAI API key, or set OPENAI_BASE_URL to an OpenAI-compatible server.\n' +
        '  - SEARCH_PROVIDER=brave needs BRAVE_API_KEY: set it, or choose another provider.\n',
    });
    // serve, on a fresh machine with no .env: Slack's settings and research's, all at once, before any database.
    const dataDir = mkdtempSync(join(tmpdir(), 'serve-'));
    const serve = await run(['serve'], { DATA_DIR: dataDir });
    expect(serve).toEqual({
      code: 1,
      out: '',
      err:
        'error: 3 settings need fixing:\n' +
        "  - SLACK_BOT_TOKEN is not set: set it to the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions.\n" +
        '  - SLACK_SIGNING_SECRET is not set: set it to the Signing Secret from Basic Information, or set SLACK_APP_TOKEN for Socket Mode.\n' +
        '  - OPENAI_API_KEY is not set: set it to your OpenAI API key, or set OPENAI_BASE_URL to an OpenAI-compatible server.\n',
    });
    expect(readdirSync(dataDir)).toEqual([]);
    const invalid = await run(['ask', 'q'], { MAX_TASKS: '9', PORT: 'eighty', OPENAI_API_KEY: 'k' });
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(
      /^error: 2 settings need fixing:\n {2}- MAX_TASKS is invalid \(got "9"\): .+\n {2}- PORT is invalid \(got "eighty"\): .+\n$/,
    );
  });

  it('refuses an --out it could not write to, at once and before any setting or model is needed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'out-'));
    const started = Date.now();
    expect(await run(['ask', '--out', join(dir, 'nope', 'r.md'), 'q'], {})).toEqual({
      code: 2,
      out: '',
      err: `error: --out ${join(dir, 'nope', 'r.md')}: the folder ${join(dir, 'nope')} does not exist; create it first or choose another path.\n`,
    });
    expect((await run(['ask', '--out', dir, 'q'], {})).err).toBe(
      `error: --out ${dir} is a folder: give a file path, e.g. ${dir}/report.md.\n`,
    );
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      expect((await run(['ask', '--out', join(locked, 'r.md'), 'q'], {})).err).toMatch(
        /files cannot be created in .+locked; check its permissions\.\n$/,
      );
      writeFileSync(join(dir, 'ro.md'), '');
      chmodSync(join(dir, 'ro.md'), 0o400);
      expect((await run(['ask', '--out', join(dir, 'ro.md'), 'q'], {})).err).toMatch(/cannot be written/);
    }
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("names the data folder this environment uses in the help (XDG_DATA_HOME's, or DATA_DIR)", async () => {
    expect((await run(['help'], { XDG_DATA_HOME: '/srv/xdg' })).out).toContain(
      'database in /srv/xdg/deep-research\n(DATA_DIR sets another folder;',
    );
    expect((await run(['help'], { DATA_DIR: '/srv/data' })).out).toContain('database in /srv/data\n');
  });

  it('exits 2 on an unknown flag for every command, and shows every flag in help COMMAND', async () => {
    for (const spec of COMMANDS) {
      const argv = [spec.name, ...(spec.sub ? [spec.sub] : []), '--bogus'];
      const result = await run(argv, {});
      expect(result, argv.join(' ')).toEqual({
        code: 2,
        out: '',
        err: `error: Unknown option '--bogus'. See deep-research help ${spec.name}.\n`,
      });
      const help = await run(['help', spec.name], {});
      for (const flag of Object.keys(spec.flags))
        expect(help.out, `${spec.name} --${flag}`).toContain(`--${flag}`);
    }
    expect((await run(['sessions', 'frobnicate'], {})).err).toBe(
      'error: use "deep-research sessions list [--limit N] [--status STATUS] [--json]", "deep-research sessions show ID [--json] [--out FILE]", "deep-research sessions delete ID".\n',
    );
    expect((await run(['sessions', 'list', '--limit', 'many'], {})).err).toBe(
      'error: --limit must be a whole number of at least 1 (got "many").\n',
    );
    expect((await run(['where', 'extra'], {})).code).toBe(2);
  });
});

describe('sessions list and show for scripts', () => {
  let cli: CliEnvironment;
  beforeAll(async () => {
    cli = await cliEnvironment(new RuleLlm({ rounds: 1 }));
  });
  afterAll(async () => cli.close());

  it('lists with --status, --limit and --json, and shows a session as JSON or into a file', async () => {
    expect((await run(['ask', '--no-clarify', '--yes', 'How do tides work?'], cli.env)).code).toBe(0);
    expect((await run(['ask', '--no-clarify', '--yes', 'What is tidal power?'], cli.env)).code).toBe(0);
    const json = await run(['sessions', 'list', '--json', '--limit', '1'], cli.env);
    const rows = json.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual([
      expect.objectContaining({ status: 'done', question: 'What is tidal power?', origin: 'cli' }),
    ]);
    expect((await run(['sessions', 'list', '--status', 'interrupted,failed'], cli.env)).out).toBe(
      'No sessions with status interrupted or failed.\n',
    );
    const done = await run(['sessions', 'list', '--status', 'done'], cli.env);
    expect(done.out.split('\n')[0]).toBe('ID        CREATED (UTC)     STATUS         QUESTION');
    expect(done.out.trim().split('\n')).toHaveLength(3);

    const id = rows[0].id as string;
    const shown = await run(['sessions', 'show', id.slice(0, 8), '--json'], cli.env);
    const session = JSON.parse(shown.out);
    expect(session).toMatchObject({ id, status: 'done', question: 'What is tidal power?' });
    expect(session.report.sources.length).toBeGreaterThan(0);
    expect(session.usage.webSearches).toBeGreaterThan(0);

    const file = join(mkdtempSync(join(tmpdir(), 'show-')), 'r.md');
    const piped = await run(['sessions', 'show', id, '--out', file], cli.env);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).toBe(piped.out);
    expect(piped.out.startsWith('# ')).toBe(true);
  }, 120_000);
});
