import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { type CliEnvironment, cliEnvironment } from '../helpers/cli-env.js';
import { io } from '../helpers/io.js';
import { eventually } from '../helpers/slack-harness.js';

const BIN = join(import.meta.dirname, '../../bin/deep-research.js');
const children: ChildProcess[] = [];

/** The CLI as a person runs it: its own process, given `env` over a clean environment. */
function cli(args: string[], env: Record<string, string>, how: 'pipe' | 'pty' | 'pty-typing' = 'pipe') {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env };
  const child =
    how !== 'pipe'
      ? // util-linux `script` gives the command a pseudo-terminal for stdin, stdout and stderr.
        spawn('script', ['-qfec', [process.execPath, BIN, ...args].map(quote).join(' '), '/dev/null'], {
          env: base,
        })
      : spawn(process.execPath, [BIN, ...args], { env: base });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  const typing = how === 'pty-typing';
  child.stdout?.on('data', (d: Buffer) => {
    out.stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out.stderr += d.toString();
  });
  // Typing: the test types into the terminal (child.stdin) as a person would.
  if (!typing) child.stdin?.end();
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, out, exited };
}

/** The CLI process researching `question` (under `script`, the pseudo-terminal's child). */
function cliPid(question: string): number | undefined {
  const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  const line = ps.split('\n').find((l) => l.includes(BIN) && l.includes(question) && !l.includes('script'));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

let env: CliEnvironment;
let db: pg.Client;
beforeAll(async () => {
  // Slow enough that a run can be caught in the middle: each model answer takes 300 ms.
  env = await cliEnvironment(new RuleLlm({ rounds: 4, delayMs: 300 }));
  env.env.LEASE_SECONDS = '5';
  db = new pg.Client({ connectionString: env.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db.end();
  await env.close();
});

const statusOf = async (question: string) =>
  (await db.query('SELECT id, status FROM sessions WHERE question = $1 ORDER BY turn', [question])).rows[0] as
    | { id: string; status: string }
    | undefined;
const agentsStarted = async (id: string) =>
  Number(
    (
      await db.query(
        "SELECT count(*) AS n FROM session_events WHERE session_id = $1 AND type = 'agent_started'",
        [id],
      )
    ).rows[0].n,
  );

describe('the CLI as a process', () => {
  it('leaves a session interrupted when its terminal closes, and resume finishes it with one report', async () => {
    const question = 'How do tides work when the terminal closes?';
    const run = cli(['ask', '--no-clarify', '--yes', question], env.env);
    const row = await eventually(
      async () => {
        const found = await statusOf(question);
        return found && (await agentsStarted(found.id)) > 0 ? found : undefined;
      },
      60_000,
      'research under way',
    );
    run.child.kill('SIGHUP');
    expect(await run.exited).toBe(1);
    expect((await statusOf(question))!.status).toBe('interrupted');
    expect(run.out.stderr).toContain(
      `Interrupted (the terminal closed): resume it with deep-research resume ${row.id.slice(0, 8)}`,
    );
    expect(run.out.stdout).toBe('');

    // Interrupted sessions are listed for the person to act on.
    const listed = io();
    expect(await runCli(['sessions', 'list', '--status', 'interrupted'], env.env, listed)).toBe(0);
    expect(listed.out.text).toContain(row.id.slice(0, 8));

    const resumed = io();
    expect(await runCli(['resume', row.id.slice(0, 8)], env.env, resumed)).toBe(0);
    expect((await statusOf(question))!.status).toBe('done');
    expect(resumed.out.text.match(/^## Sources$/gm)).toHaveLength(1);
    const reports = await db.query(
      "SELECT count(*)::int AS n FROM session_events WHERE session_id = $1 AND type = 'report_done'",
      [row.id],
    );
    expect(reports.rows[0].n).toBe(1);
    // Research done before the interruption's last checkpoint is not done twice.
    const started = await db.query(
      "SELECT payload->>'task' AS task FROM session_events WHERE session_id = $1 AND type = 'agent_started'",
      [row.id],
    );
    const tasks = started.rows.map((r) => r.task);
    expect(tasks).toEqual([...new Set(tasks)]);
    expect(tasks).toHaveLength(4);
    // Nothing is left to resume.
    const again = io();
    expect(await runCli(['resume', row.id], env.env, again)).toBe(1);
    expect(again.err.text).toBe(`error: session ${row.id.slice(0, 8)} cannot be resumed: it is done.\n`);

    // Research more from the terminal: a second session going on from this one's report.
    const more = io();
    expect(await runCli(['more', row.id.slice(0, 8)], env.env, more)).toBe(0);
    expect(more.err.text).toContain(`Researching more: ${question}`);
    const turns = await db.query('SELECT turn, status FROM sessions WHERE question = $1 ORDER BY turn', [
      question,
    ]);
    expect(turns.rows).toEqual([
      { turn: 1, status: 'done' },
      { turn: 2, status: 'done' },
    ]);
  }, 120_000);

  it('rests a session interrupted within the lease time after its process is killed outright, and cancel ends it', async () => {
    const question = 'How do tides work when the process is killed?';
    const run = cli(['ask', '--no-clarify', '--yes', question], env.env);
    const row = await eventually(
      async () => {
        const found = await statusOf(question);
        return found && (await agentsStarted(found.id)) > 0 ? found : undefined;
      },
      60_000,
      'research under way',
    );
    run.child.kill('SIGKILL');
    await run.exited;
    expect((await statusOf(question))!.status).toBe('running');
    // Any look at the sessions after the lease (5 s) finds it interrupted.
    await eventually(
      async () => {
        await runCli(['sessions', 'list'], env.env, io());
        return (await statusOf(question))!.status === 'interrupted';
      },
      20_000,
      'interrupted',
    );
    // An interrupted session does not count against the per-person limit: with a limit of 1, asking works.
    const limited = { ...env.env, MAX_SESSIONS_PER_USER: '1' };
    expect(await runCli(['ask', '--no-clarify', '--yes', 'Is the limit free again?'], limited, io())).toBe(0);
    const cancelled = io();
    expect(await runCli(['cancel', row.id.slice(0, 8)], env.env, cancelled)).toBe(0);
    expect(cancelled.out.text).toBe(`Cancelled session ${row.id.slice(0, 8)}.\n`);
    expect((await statusOf(question))!.status).toBe('cancelled');
  }, 120_000);

  it('stops at once when cancelled from another terminal on Postgres, long before its lease would be checked', async () => {
    const question = 'How do tides work when cancelled from another terminal?';
    // A lease checked every 100 s: only the cancel notice can stop the run in time.
    const slow = { ...env.env, LEASE_SECONDS: '300' };
    const run = cli(['ask', '--no-clarify', '--yes', question], slow);
    const row = await eventually(
      async () => {
        const found = await statusOf(question);
        return found && (await agentsStarted(found.id)) > 0 ? found : undefined;
      },
      60_000,
      'research under way',
    );
    const cancelled = io();
    const asked = Date.now();
    expect(await runCli(['cancel', row.id.slice(0, 8)], slow, cancelled)).toBe(0);
    expect(cancelled.out.text).toContain(`Stopping session ${row.id.slice(0, 8)}`);
    expect(await run.exited).toBe(130);
    // Within a second or two of the notice; generous here for a busy machine.
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect((await statusOf(question))!.status).toBe('cancelled');
    expect(run.out.stderr).toContain('Cancelled. What was found so far:');
  }, 120_000);

  it('shares the embedded database with a second terminal: cancel stops the run at once, a second research is told who has it', async () => {
    const question = 'How do tides work on the embedded database?';
    const data = mkdtempSync(join(tmpdir(), 'cli-data-'));
    // A lease checked every 100 s: only looking for the cancel can stop the run in time.
    const embedded = { ...env.env, DATABASE_URL: '', DATA_DIR: data, LEASE_SECONDS: '300' };
    const run = cli(['ask', '--no-clarify', '--yes', question], embedded);
    await eventually(async () => run.out.stderr.includes('[1.1]'), 60_000, 'research under way');
    const id = /Session ([0-9a-f-]{36})/.exec(run.out.stderr)![1]!;

    const second = io();
    expect(await runCli(['ask', '--no-clarify', '--yes', 'Q?'], embedded, second)).toBe(1);
    expect(second.err.text).toBe(
      `error: The embedded database in ${data} is open in another deep-research process (deep-research ask, PID ${run.child.pid}); only short commands (cancel, sessions, usage, find, ask --background) can share it. Wait for it to end or stop it, or set DATABASE_URL to a Postgres database to run several at once.\n`,
    );
    const listed = io();
    expect(await runCli(['sessions', 'list'], embedded, listed)).toBe(0);
    expect(listed.out.text).toMatch(/running.*How do tides work on the embedded database\?/);

    const cancelled = io();
    const asked = Date.now();
    expect(await runCli(['cancel', id.slice(0, 8)], embedded, cancelled)).toBe(0);
    expect(cancelled.out.text).toContain(`Stopping session ${id.slice(0, 8)}`);
    expect(await run.exited).toBe(130);
    // Within a second or two; generous here for a busy machine.
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(run.out.stderr).toContain('Cancelled. What was found so far:');
    const after = io();
    expect(await runCli(['sessions', 'list'], embedded, after)).toBe(0);
    expect(after.out.text).toMatch(/cancelled.*How do tides work on the embedded database\?/);
  }, 120_000);

  it('queues research with ask --background for a worker that has the embedded database open', async () => {
    const embedded = { ...env.env, DATABASE_URL: '', DATA_DIR: mkdtempSync(join(tmpdir(), 'cli-data-')) };
    const worker = cli(['worker'], embedded);
    // Open, and served to the processes that join it, once its lock names its socket's folder.
    const lock = join(embedded.DATA_DIR, 'pglite.lock');
    await eventually(
      async () => existsSync(lock) && 'socket' in JSON.parse(readFileSync(lock, 'utf8')),
      60_000,
      'the worker serving the database',
    );
    for (const question of ['How do tides work, first queued?', 'How do tides work, second queued?']) {
      const queued = io();
      expect(await runCli(['ask', '--background', question], embedded, queued)).toBe(0);
    }
    await eventually(
      async () => {
        const listed = io();
        await runCli(['sessions', 'list'], embedded, listed);
        return (listed.out.text.match(/\bdone\b/g) ?? []).length === 2 || undefined;
      },
      90_000,
      'both queued sessions done',
    );
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 150_000);

  it('ends within seconds when its terminal goes away, resting its session interrupted, and never loops', async () => {
    const question = 'How do tides work when the terminal window is closed?';
    // The embedded database, as a new install has it: the process holds its data folder until it ends.
    const embedded = { ...env.env, DATABASE_URL: '', DATA_DIR: mkdtempSync(join(tmpdir(), 'cli-data-')) };
    const run = cli(['ask', '--no-clarify', '--yes', question], embedded, 'pty');
    await eventually(async () => run.out.stdout.includes('[1.1]'), 60_000, 'research under way');
    const pid = cliPid(question);
    expect(pid).toBeGreaterThan(0);
    // The terminal emulator is killed outright: the pseudo-terminal closes under the CLI (EIO on every write).
    run.child.kill('SIGKILL');
    const closed = Date.now();
    await eventually(async () => !alive(pid!), 30_000, 'the CLI process gone');
    const after = Date.now() - closed;
    // Two seconds of grace, then it ends; generous here for a busy machine.
    expect(after).toBeLessThan(15_000);
    // The data folder is free again, and the session rests interrupted in it.
    const listed = io();
    expect(await runCli(['sessions', 'list', '--status', 'interrupted'], embedded, listed)).toBe(0);
    expect(listed.out.text).toContain('How do tides work when the terminal');
  }, 120_000);

  it('lets the plan editor have the terminal: what is typed in it reaches the editor, and the research follows the plan saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-editor-'));
    // An editor that, like vi, polls the terminal for keys (a Node script), and saves the line typed as the plan.
    const editor = join(dir, 'editor.mjs');
    writeFileSync(
      editor,
      [
        `#!${process.execPath}`,
        "import { writeFileSync } from 'node:fs';",
        "let typed = '';",
        "process.stdout.write('EDITOR READY\\n');",
        "process.stdin.on('data', (d) => {",
        '  typed += d;',
        '  if (!/[\\r\\n]/.test(typed)) return;',
        "  writeFileSync(process.argv[2], typed.split(/[\\r\\n]/)[0] + '\\n');",
        '  process.exit(0);',
        '});',
      ].join('\n'),
    );
    chmodSync(editor, 0o755);
    const question = 'How do tidal barrages work, edited in an editor?';
    const run = cli(
      ['ask', '--no-clarify', question],
      { ...env.env, EDITOR: editor, PAGER: 'cat' },
      'pty-typing',
    );
    await eventually(
      async () => run.out.stdout.includes('Start? [Y/n/e(dit)/t(ype)]'),
      60_000,
      'the plan prompt',
    );
    run.child.stdin!.write('e\r');
    await eventually(async () => run.out.stdout.includes('EDITOR READY'), 30_000, 'the editor');
    // Typed key by key, as a person types.
    for (const key of '1. Only tidal barrages in Europe\r') {
      run.child.stdin!.write(key);
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(await run.exited).toBe(0);
    const { rows } = await db.query('SELECT status, plan FROM sessions WHERE question = $1', [question]);
    expect(rows).toEqual([{ status: 'done', plan: '1. Only tidal barrages in Europe' }]);
  }, 120_000);

  it('ends quietly when its reader goes away, and prints no escape codes under NO_COLOR in a terminal', async () => {
    const piped = cli(['help'], env.env);
    piped.child.stdout!.destroy();
    expect(await piped.exited).toBe(0);
    expect(piped.out.stderr).toBe('');

    const args = ['ask', '--no-clarify', '--yes', 'What is tidal power?'];
    const plain = cli(args, { ...env.env, NO_COLOR: '1', PAGER: 'cat' }, 'pty');
    expect(await plain.exited).toBe(0);
    expect(plain.out.stdout).toContain('Sources:');
    expect(plain.out.stdout).not.toMatch(/\x1b/);
    const coloured = cli(args, { ...env.env, PAGER: 'cat' }, 'pty');
    expect(await coloured.exited).toBe(0);
    expect(coloured.out.stdout).toMatch(/\x1b\[/);
  }, 180_000);
});
