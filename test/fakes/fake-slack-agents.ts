/** One thread's agent session as the fake keeps it. */
export interface FakeAgentSession {
  /** Every status set, oldest first. */
  statuses: string[];
  title: string;
  initiator?: string;
  /** Titles given by agents.sessions.rename, oldest first. */
  renames: string[];
}

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

const STATUSES = new Set(['active', 'processing', 'suspended', 'closed']);
const TITLE_MAX = 200;

/**
 * Slack's agent sessions (docs.slack.dev: agents.sessions.setStatus and
 * agents.sessions.rename) for an app declared as an agent: thread-based
 * sessions keyed by channel_id + thread_ts, created by the first setStatus
 * (its title and initiator kept; ignored afterwards), statuses from Slack's
 * list, titles of 1 to 200 characters; a rename needs an existing session.
 * The suggested prompts of the Messages tab are set on the conversation: a
 * call with a thread_ts is ignored, as Slack does for agent apps.
 */
export function fakeAgents(parseJson: (value: unknown) => unknown) {
  const sessions = new Map<string, FakeAgentSession>();
  /** The example questions each conversation's Messages tab offers. */
  const prompts = new Map<string, { title: string; message: string }[]>();
  const key = (args: Record<string, unknown>) =>
    `${String(args.channel_id ?? '')}:${String(args.thread_ts ?? '')}`;

  function handle(method: string, args: Record<string, unknown>): Answer | undefined {
    switch (method) {
      case 'agents.sessions.setStatus': {
        const title = args.title === undefined ? undefined : String(args.title);
        if (!args.channel_id || !args.thread_ts || !STATUSES.has(String(args.status)))
          return { ok: false, error: 'invalid_arguments' };
        if (title !== undefined && (!title || title.length > TITLE_MAX))
          return { ok: false, error: 'invalid_arguments' };
        let session = sessions.get(key(args));
        if (!session) {
          session = {
            statuses: [],
            title: title ?? 'New chat',
            initiator: args.initiator_user_id ? String(args.initiator_user_id) : undefined,
            renames: [],
          };
          sessions.set(key(args), session);
        }
        session.statuses.push(String(args.status));
        return { ok: true, body: { status: String(args.status), title: session.title } };
      }
      case 'agents.sessions.rename': {
        const title = String(args.title ?? '');
        if (!args.channel_id || !title || title.length > TITLE_MAX)
          return { ok: false, error: 'invalid_arguments' };
        const session = sessions.get(key(args));
        if (!session) return { ok: false, error: 'session_not_found' };
        session.title = title;
        session.renames.push(title);
        return { ok: true, body: {} };
      }
      case 'assistant.threads.setSuggestedPrompts': {
        const list = parseJson(args.prompts) as { title?: unknown; message?: unknown }[] | undefined;
        const valid =
          Array.isArray(list) &&
          list.length >= 1 &&
          list.length <= 4 &&
          list.every(
            (p) => typeof p.title === 'string' && p.title && typeof p.message === 'string' && p.message,
          );
        if (!args.channel_id || !valid) return { ok: false, error: 'invalid_arguments' };
        // "Including it in a call for an agent app will cause the call to silently fail."
        if (!args.thread_ts)
          prompts.set(String(args.channel_id), list as { title: string; message: string }[]);
        return { ok: true, body: {} };
      }
      default:
        return undefined;
    }
  }

  return {
    handle,
    sessions,
    prompts,
    /** Slack opened a session itself (a message in the Messages tab), with its own title. */
    open(channel: string, threadTs: string, title: string) {
      sessions.set(`${channel}:${threadTs}`, { statuses: [], title, renames: [] });
    },
    /** The thread's statuses without repeats: what the person saw change. */
    changes(channel: string, threadTs: string): string[] {
      const all = sessions.get(`${channel}:${threadTs}`)?.statuses ?? [];
      return all.filter((s, i) => s !== all[i - 1]);
    },
  };
}
