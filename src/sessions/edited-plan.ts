import { withoutControls } from '../ports/control-characters.js';

/** A research plan has at most this many steps (the plan prompt asks for as many). */
export const MAX_PLAN_STEPS = 6;
const MAX_STEP_CHARS = 500;
/** What the editor's text box holds (plain_text_input max_length), enforced here too: a request can claim anything. */
export const MAX_PLAN_CHARS = 3000;

/**
 * A plan the requester edited: numbered steps (`1.` or `1)`), one per line,
 * at most six, none empty or overlong; other lines are kept as notes under the
 * step before them. The plan as it will be used, or why it cannot be.
 */
export function checkEditedPlan(text: string): { plan: string } | { error: string } {
  if (text.length > MAX_PLAN_CHARS)
    return {
      error: `The plan is ${text.length.toLocaleString('en-US')} characters long; keep it under ${MAX_PLAN_CHARS.toLocaleString('en-US')}.`,
    };
  const lines = withoutControls(text)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
  const steps = lines.filter((l) => /^\s*\d+[.)]\s*/.test(l));
  if (steps.length === 0) return { error: 'Write the plan as numbered steps: "1. …", one per line.' };
  if (steps.length > MAX_PLAN_STEPS)
    return { error: `A plan has at most ${MAX_PLAN_STEPS} steps; this one has ${steps.length}.` };
  if (steps.some((s) => !s.replace(/^\s*\d+[.)]\s*/, '').trim())) return { error: 'A step is empty.' };
  if (steps.some((s) => s.length > MAX_STEP_CHARS))
    return { error: `Keep each step under ${MAX_STEP_CHARS} characters.` };
  return { plan: lines.join('\n').trim() };
}
