/** A canvas as the fake keeps it: what the app wrote and who may read it. */
export interface FakeCanvas {
  id: string;
  title?: string;
  markdown: string;
  readers: { channels: string[]; users: string[] };
  deleted?: boolean;
}

/** canvases.create takes at most 1 MiB of Markdown (docs.slack.dev, canvases.create). */
export const CANVAS_MARKDOWN_MAX = 1_048_576;

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

/**
 * Slack's canvas methods as the app uses them (docs.slack.dev: canvases.create,
 * canvases.access.set, canvases.delete): Markdown document content up to
 * 1 MiB, standalone canvases owned by the app, read access for channels or
 * for people (direct-message channel ids are not accepted).
 */
export function fakeCanvases(parseJson: (value: unknown) => unknown) {
  const canvases: FakeCanvas[] = [];
  const live = (id: unknown) => canvases.find((c) => c.id === id && !c.deleted);

  function handle(method: string, args: Record<string, unknown>): Answer | undefined {
    switch (method) {
      case 'canvases.create': {
        const content = parseJson(args.document_content) as
          | { type?: unknown; markdown?: unknown }
          | undefined;
        if (content && (content.type !== 'markdown' || typeof content.markdown !== 'string'))
          return { ok: false, error: 'invalid_arguments' };
        const markdown = (content?.markdown as string | undefined) ?? '';
        if (markdown.length > CANVAS_MARKDOWN_MAX) return { ok: false, error: 'canvas_creation_failed' };
        const id = `F0CANVAS${canvases.length + 1}`;
        canvases.push({
          id,
          title: args.title === undefined ? undefined : String(args.title),
          markdown,
          readers: { channels: [], users: [] },
        });
        return { ok: true, body: { canvas_id: id } };
      }
      case 'canvases.access.set': {
        const canvas = live(args.canvas_id);
        if (!canvas) return { ok: false, error: 'canvas_not_found' };
        if (args.access_level !== 'read' && args.access_level !== 'write')
          return { ok: false, error: 'invalid_arguments' };
        const channels = list(parseJson, args.channel_ids);
        const users = list(parseJson, args.user_ids);
        if (channels.length + users.length === 0) return { ok: false, error: 'invalid_arguments' };
        if (channels.some((c) => c.startsWith('D'))) return { ok: false, error: 'invalid_arguments' };
        canvas.readers.channels.push(...channels);
        canvas.readers.users.push(...users);
        return { ok: true, body: {} };
      }
      case 'canvases.delete': {
        const canvas = live(args.canvas_id);
        if (!canvas) return { ok: false, error: 'canvas_not_found' };
        canvas.deleted = true;
        return { ok: true, body: {} };
      }
      default:
        return undefined;
    }
  }

  return { canvases, handle };
}

function list(parseJson: (value: unknown) => unknown, value: unknown): string[] {
  if (value === undefined) return [];
  const parsed = typeof value === 'string' && !value.startsWith('[') ? value.split(',') : parseJson(value);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}
