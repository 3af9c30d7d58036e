import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { checkEditedPlan } from '../sessions/edited-plan.js';
import type { Io } from './io.js';

export type PlanDecision = { kind: 'start'; plan?: string } | { kind: 'cancel' };

/**
 * The plan review at the terminal: "Start? [Y/n/e(dit)]". Enter (or the end of
 * input) starts; `n` cancels; `e` reads a new plan (numbered steps, ended by an
 * empty line), checked as in Slack and asked again until it is valid.
 */
export async function reviewPlanAtPrompt(
  io: Io,
  estimate: string,
  edit: { plan: string; editor?: string } = { plan: '' },
): Promise<PlanDecision> {
  io.stderr.write(`Estimate: ${estimate}\nStart? [Y/n/e(dit)] `);
  // Nothing more to read (input already ended): Enter's answer.
  if (io.stdin.readableEnded || io.stdin.destroyed) {
    io.stderr.write('\n');
    return { kind: 'start' };
  }
  const rl = createInterface({ input: io.stdin, terminal: false });
  const lines: string[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  rl.on('line', (line) => (waiting ? waiting(line) : lines.push(line)));
  rl.once('close', () => waiting?.(null));
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
      if (answer !== 'e' && answer !== 'edit') return { kind: 'start' };
      let text: string;
      if (edit.editor) {
        const edited = await inEditor(edit.editor, edit.plan);
        if ('error' in edited) {
          io.stderr.write(`${edited.error}\nStart? [Y/n/e(dit)] `);
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
      io.stderr.write(`${checked.error}\nStart? [Y/n/e(dit)] `);
    }
  } finally {
    rl.close();
  }
}

/**
 * The plan in a temporary file opened with `editor` (a shell command, as
 * EDITOR is): the file as saved when the editor exits, or why not.
 */
async function inEditor(editor: string, plan: string): Promise<{ text: string } | { error: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'deep-research-plan-'));
  const file = join(dir, 'plan.md');
  try {
    await writeFile(file, `${plan}\n`);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit' });
      child.once('error', () => resolve(null));
      child.once('exit', resolve);
    });
    if (code !== 0) return { error: `The editor (${editor}) did not finish cleanly; the plan is unchanged.` };
    return { text: await readFile(file, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
