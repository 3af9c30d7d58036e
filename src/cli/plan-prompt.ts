import { createInterface } from 'node:readline';
import { checkEditedPlan } from '../engine/edited-plan.js';
import type { Io } from './io.js';

export type PlanDecision = { kind: 'start'; plan?: string } | { kind: 'cancel' };

/**
 * The plan review at the terminal: "Start? [Y/n/e(dit)]". Enter (or the end of
 * input) starts; `n` cancels; `e` reads a new plan (numbered steps, ended by an
 * empty line), checked as in Slack and asked again until it is valid.
 */
export async function reviewPlanAtPrompt(io: Io, estimate: string): Promise<PlanDecision> {
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
      io.stderr.write('Write the plan as numbered steps (at most 6), then an empty line:\n');
      const plan: string[] = [];
      for (let line = await next(); line?.trim(); line = await next()) plan.push(line);
      const checked = checkEditedPlan(plan.join('\n'));
      if ('plan' in checked) return { kind: 'start', plan: checked.plan };
      io.stderr.write(`${checked.error}\nStart? [Y/n/e(dit)] `);
    }
  } finally {
    rl.close();
  }
}
