/** A task card as the fake keeps it (the latest task_update for its id). */
export interface FakeTask {
  id: string;
  title: string;
  status: string;
  details?: string;
  output?: string;
  sources?: { type: string; url: string; text: string }[];
}

/** A streamed message's own state. */
export interface FakeStream {
  state: 'streaming' | 'stopped';
  /** Stopped by the person (Slack's Stop button), not by the app. */
  byUser?: boolean;
  mode: string;
  recipient?: { user: string; team: string };
  title?: string;
  tasks: FakeTask[];
  markdown: string;
  /** Calls that changed it: startStream, each appendStream, stopStream. */
  calls: number;
}

/** Slack's limit on `markdown_text` per call (docs.slack.dev, chat.startStream / appendStream). */
export const STREAM_MARKDOWN_MAX = 12_000;
const STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };
interface StreamedMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: unknown[];
  history: string[];
  stream?: FakeStream;
}

/**
 * Slack's streaming methods (docs.slack.dev: chat.startStream, chat.appendStream,
 * chat.stopStream) with their documented arguments: a thread reply, the
 * recipient outside direct messages, `task_display_mode` timeline or plan,
 * chunks of type markdown_text (≤ 12,000 characters), task_update (id, title,
 * status, details, output, URL sources), plan_update (title) and blocks; no
 * appends once stopped (`message_not_in_streaming_state`, or `stopped_by_user`
 * after the person pressed Stop).
 */
export function fakeStreams(
  messages: StreamedMessage[],
  nextTs: () => string,
  parseJson: (value: unknown) => unknown,
) {
  const find = (channel: string, ts: string) => messages.find((m) => m.channel === channel && m.ts === ts);

  function apply(stream: FakeStream, args: Record<string, unknown>): string | undefined {
    const chunks = parseJson(args.chunks) as Record<string, unknown>[] | undefined;
    const markdown = args.markdown_text;
    if (chunks === undefined && markdown === undefined) return 'invalid_arguments';
    if (markdown !== undefined) {
      if (typeof markdown !== 'string' || markdown.length > STREAM_MARKDOWN_MAX) return 'msg_too_long';
      stream.markdown += markdown;
    }
    for (const chunk of chunks ?? []) {
      switch (chunk.type) {
        case 'markdown_text':
          if (typeof chunk.text !== 'string' || chunk.text.length > STREAM_MARKDOWN_MAX)
            return 'msg_too_long';
          stream.markdown += chunk.text;
          break;
        case 'plan_update':
          if (typeof chunk.title !== 'string' || !chunk.title) return 'invalid_chunks';
          stream.title = chunk.title;
          break;
        case 'task_update': {
          const task = validTask(chunk);
          if (!task) return 'invalid_chunks';
          const at = stream.tasks.findIndex((t) => t.id === task.id);
          if (at >= 0) stream.tasks[at] = task;
          else stream.tasks.push(task);
          break;
        }
        case 'blocks':
          if (!Array.isArray(chunk.blocks) || chunk.blocks.length > 50) return 'invalid_blocks';
          break;
        default:
          return 'invalid_chunks';
      }
    }
    stream.calls += 1;
    return undefined;
  }

  function handle(method: string, args: Record<string, unknown>): Answer | undefined {
    const channel = String(args.channel ?? '');
    switch (method) {
      case 'chat.startStream': {
        if (!channel || !args.thread_ts) return { ok: false, error: 'invalid_arguments' };
        const dm = channel.startsWith('D');
        if (!dm && (!args.recipient_user_id || !args.recipient_team_id))
          return { ok: false, error: 'invalid_arguments' };
        const mode = String(args.task_display_mode ?? 'timeline');
        if (mode !== 'timeline' && mode !== 'plan') return { ok: false, error: 'invalid_arguments' };
        const stream: FakeStream = {
          state: 'streaming',
          mode,
          recipient: dm
            ? undefined
            : { user: String(args.recipient_user_id), team: String(args.recipient_team_id) },
          tasks: [],
          markdown: '',
          calls: 0,
        };
        const refused = apply(stream, args);
        if (refused) return { ok: false, error: refused };
        const message: StreamedMessage = {
          channel,
          ts: nextTs(),
          threadTs: String(args.thread_ts),
          text: '',
          blocks: [],
          history: [],
          stream,
        };
        show(message);
        messages.push(message);
        return { ok: true, body: { channel, ts: message.ts } };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const message = find(channel, String(args.ts));
        if (!message) return { ok: false, error: 'message_not_found' };
        if (message.stream?.byUser) return { ok: false, error: 'stopped_by_user' };
        if (message.stream?.state !== 'streaming')
          return { ok: false, error: 'message_not_in_streaming_state' };
        const refused =
          method === 'chat.stopStream' && args.chunks === undefined && args.markdown_text === undefined
            ? undefined
            : apply(message.stream, args);
        if (refused) return { ok: false, error: refused };
        if (method === 'chat.stopStream') message.stream.state = 'stopped';
        show(message);
        return { ok: true, body: { channel, ts: message.ts } };
      }
      default:
        return undefined;
    }
  }

  /** chat.update is for finished messages: a stream still running is refused. */
  function refusesUpdate(channel: string, ts: string): string | undefined {
    return find(channel, ts)?.stream?.state === 'streaming' ? 'message_not_in_streaming_state' : undefined;
  }

  function stopByUser(channel: string, threadTs: string): string[] {
    const running = messages.filter(
      (m) => m.channel === channel && m.threadTs === threadTs && m.stream?.state === 'streaming',
    );
    for (const m of running) Object.assign(m.stream!, { state: 'stopped', byUser: true });
    return running.map((m) => m.ts);
  }

  return { handle, refusesUpdate, stopByUser };
}

function validTask(chunk: Record<string, unknown>): FakeTask | undefined {
  const { id, title, status, details, output, sources } = chunk;
  if (typeof id !== 'string' || !id || typeof title !== 'string' || !STATUSES.has(String(status)))
    return undefined;
  if (details !== undefined && typeof details !== 'string') return undefined;
  if (output !== undefined && typeof output !== 'string') return undefined;
  const list = (sources ?? []) as { type?: unknown; url?: unknown; text?: unknown }[];
  const validSources =
    Array.isArray(list) &&
    list.every(
      (s) =>
        s.type === 'url' &&
        typeof s.url === 'string' &&
        /^https?:\/\//.test(s.url) &&
        typeof s.text === 'string',
    );
  if (!validSources) return undefined;
  return { id, title, status: String(status), details, output, sources: sources as FakeTask['sources'] };
}

/** What a person sees of a stream: the title, a line per task card, then the text. */
function show(message: StreamedMessage): void {
  const stream = message.stream!;
  const tasks = stream.tasks.map((t) => {
    const note = t.output ?? t.details;
    return `[${t.status}] ${t.title}${note ? ` — ${note}` : ''}${t.sources?.length ? ` (${t.sources.length} pages)` : ''}`;
  });
  message.text = [stream.title ?? '', ...tasks, stream.markdown].filter(Boolean).join('\n');
  message.history.push(message.text);
}
