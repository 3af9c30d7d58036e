import type { SessionStore } from './session-store.js';

/** Finished sessions past RETENTION_DAYS go (with everything kept with them), Slack event keys past a day. */
export async function applyRetention(sessions: SessionStore, retentionDays: number): Promise<number> {
  const purged = await sessions.purgeSessions(retentionDays);
  await sessions.purgeProcessedEvents(24);
  return purged;
}
