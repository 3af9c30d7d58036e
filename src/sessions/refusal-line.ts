import type { Refusal } from './admission.js';

/** Why a research will not start, in one sentence (the terminal, a schedule's run), in Slack's words where they fit. */
export function refusalLine(refusal: Refusal): string {
  if ('sentence' in refusal) return refusal.sentence;
  if (refusal.kind === 'policy_changed')
    return "the channel's research policy changed while this was decided; try again under the new one.";
  if (refusal.kind === 'too_many')
    return `you already have ${refusal.active} research sessions running (the limit is ${refusal.limit}); wait for one to finish or cancel it.`;
  return 'research is already under way there.';
}
