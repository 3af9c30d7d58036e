import type { SlackApi } from './slack-api.js';
import { SlackCallError } from './slack-errors.js';

// The report as a canvas (canvases:write). Canvases are files: their ids are file ids.

/** A canvas holding `markdown`, owned by the app and shared with no one yet; its id. */
export async function createCanvas(api: SlackApi, title: string, markdown: string): Promise<string> {
  const result = await api.call('canvases.create', () =>
    api.client.canvases.create({ title, document_content: { type: 'markdown', markdown } }),
  );
  return String((result as { canvas_id?: string }).canvas_id);
}

/**
 * Lets a channel's members (or, in a direct message, the person: Slack
 * takes no DM channel ids here) read the canvas.
 */
export async function shareCanvas(
  api: SlackApi,
  canvasId: string,
  to: { channel: string } | { user: string },
): Promise<void> {
  await api.call('canvases.access.set', () =>
    api.client.canvases.access.set({
      canvas_id: canvasId,
      access_level: 'read',
      ...('channel' in to ? { channel_ids: [to.channel] } : { user_ids: [to.user] }),
    }),
  );
}

/** Deletes one of the app's canvases; one already gone is done (a retried removal changes nothing). */
export async function deleteCanvas(api: SlackApi, canvasId: string): Promise<void> {
  try {
    await api.call('canvases.delete', () => api.client.canvases.delete({ canvas_id: canvasId }));
  } catch (error) {
    if (!(error instanceof SlackCallError && error.code === 'canvas_not_found')) throw error;
  }
}
