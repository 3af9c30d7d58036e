import type { Refusal } from '../sessions/admission.js';

/** Why the terminal will not start a research, in the words Slack uses where they fit a terminal. */
export function refusalLine(refusal: Refusal): string {
  if (refusal.kind === 'spend_cap' || refusal.kind === 'question') return refusal.sentence;
  if (refusal.kind === 'too_many')
    return `you already have ${refusal.active} research sessions running (the limit is ${refusal.limit}); wait for one to finish or cancel it.`;
  return 'research is already under way there.';
}
