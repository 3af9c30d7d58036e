import type { SessionContext } from '../session-context.js';

/**
 * Hands the orchestrator what the requester wrote since the last cycle, as
 * messages from the requester in its conversation (checkpointed with it, so a
 * resumed session neither loses nor repeats a note). A store that cannot be
 * read now is tried again at the next cycle.
 */
export async function applySteering(ctx: SessionContext): Promise<void> {
  const { deps, state } = ctx;
  if (!deps.steering) return;
  let notes: { id: number; text: string }[];
  try {
    notes = await deps.steering(state.steeringSeen ?? 0);
  } catch (err) {
    ctx.log.warn({ err }, "could not read the requester's notes; trying again at the next cycle");
    return;
  }
  for (const note of notes) {
    state.history.push({
      role: 'user',
      content: deps.prompts.render('requester-steering', { text: note.text }).text,
    });
    state.steeringSeen = note.id;
    deps.emit({ type: 'steering', text: note.text });
  }
}
