import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { checkEditedPlan } from '../sessions/edited-plan.js';
import type { Io } from './io.js';

export type PlanDecision = { kind: 'start'; plan?: string } | { kind: 'cancel' };

const ASK = 'Start? [Y/n/e(dit)/t(ype)] ';

/**
 * The plan review at the terminal: "Start? [Y/n/e(dit)/t(ype)]". Enter (or
 * the end of input) starts; `n` cancels; `e` opens the plan in the editor
 * (VISUAL, EDITOR), `t` (or `e` with no editor) reads a new plan typed at the
 * prompt (numbered steps, ended by an empty line); an edited plan is checked
 * as in Slack and asked again until it is valid.
 */
export async function reviewPlanAtPrompt(
  io: Io,
  estimate: string,
  edit: { plan: string; editor?: string } = { plan: '' },
): Promise<PlanDecision> {
  io.stderr.write(`Estimate: ${estimate}\n${ASK}`);
  // Nothing more to read (input already ended): Enter's answer.
  if (io.stdin.readableEnded || io.stdin.destroyed) {
    io.stderr.write('\n');
    return { kind: 'start' };
  }
  const rl = createInterface({ input: io.stdin, terminal: false });
  const lines: string[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  rl.on('line', (line) => (waiting ? waiting(line) : lines.push(line)));
  // Input that ended closes the interface: it can no longer be paused (Node 24 throws).
  let closed = false;
  rl.once('close', () => {
    closed = true;
    waiting?.(null);
  });
  const next = () =>
    new Promise<string | null>((resolve) => {
      if (lines.length) return resolve(lines.shift()!);
      waiting = (line) => {
        waiting = undefined;
        resolve(line);
      };
      io.signal.addEventListener('abort', () => resolve(null), { once: true });
    });
  try {
    for (;;) {
      const line = await next();
      // Input that ended answers Enter; end the prompt's line as Enter would have.
      if (line === null) io.stderr.write('\n');
      const answer = line?.trim().toLowerCase() ?? '';
      if (io.signal.aborted || answer === 'n' || answer === 'no') return { kind: 'cancel' };
      const typed = answer === 't' || answer === 'type';
      if (answer !== 'e' && answer !== 'edit' && !typed) return { kind: 'start' };
      let text: string;
      if (edit.editor && !typed) {
        // The editor owns the terminal while it runs: nothing here reads a key meant for it.
        if (!closed) rl.pause();
        const edited = await inEditor(edit.editor, edit.plan, io.stdin);
        if (!closed) rl.resume();
        if ('error' in edited) {
          io.stderr.write(`${edited.error}\n${ASK}`);
          continue;
        }
        text = edited.text;
      } else {
        io.stderr.write('Write the plan as numbered steps (at most 6), then an empty line:\n');
        const plan: string[] = [];
        for (let line = await next(); line?.trim(); line = await next()) plan.push(line);
        text = plan.join('\n');
      }
      const checked = checkEditedPlan(text);
      if ('plan' in checked) return { kind: 'start', plan: checked.plan };
      io.stderr.write(`${checked.error}\n${ASK}`);
    }
  } finally {
    rl.close();
  }
}

/**
 * The plan in a temporary file opened with `editor` (a shell command, as
 * EDITOR is): the file as saved when the editor exits, or why not.
 */
async function inEditor(
  editor: string,
  plan: string,
  stdin: Io['stdin'],
): Promise<{ text: string } | { error: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'deep-research-plan-'));
  const file = join(dir, 'plan.md');
  const tty = stdin as Io['stdin'] & {
    isTTY?: boolean;
    isRaw?: boolean;
    setRawMode?: (raw: boolean) => void;
  };
  const raw = Boolean(tty.isTTY && tty.isRaw);
  try {
    await writeFile(file, `${plan}\n`);
    // This process stops reading the terminal (and leaves raw mode) until the editor exits.
    stdin.pause();
    if (raw) tty.setRawMode?.(false);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit' });
      child.once('error', () => resolve(null));
      child.once('exit', resolve);
    });
    if (raw) tty.setRawMode?.(true);
    stdin.resume();
    if (code !== 0) return { error: `The editor (${editor}) did not finish cleanly; the plan is unchanged.` };
    return { text: await readFile(file, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
