import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeAgents } from './fake-slack-agents.js';
import { fakeCanvases } from './fake-slack-canvases.js';
import { dataBlockProblem } from './fake-slack-data-blocks.js';
import { type FakeStream, fakeStreams } from './fake-slack-streams.js';

export interface FakeMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks: Block[];
  /** Every version this message had, oldest first (posts and edits). */
  history: string[];
  deleted?: boolean;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** A file share (files v2 posts one in the thread; a person's share carries its download address). */
  files?: { id: string; name?: string; size?: number; url_private_download?: string; permalink?: string }[];
  /** A streamed message (chat.startStream). */
  stream?: FakeStream;
  /** A person's message (see `say`); the app's own have none. */
  user?: string;
}

interface Block {
  type: string;
  text?: { type: string; text: string };
  elements?: { type: string; text?: string | { text: string }; action_id?: string; value?: string }[];
  fields?: { text: string }[];
}

export interface FakeCall {
  method: string;
  args: Record<string, unknown>;
  at: number;
  status: number;
  error?: string;
}

const DATA_BLOCKS = new Set(['data_visualization', 'data_table']);

/** Slack's real limits (docs.slack.dev, reference/slack.md §5); the fake refuses what Slack refuses. */
export const FAKE_LIMITS = { text: 4000, blocks: 50, section: 3000, blockText: 11_000 };

/**
 * chat.postMessage per channel: "1 message per second, short bursts allowed"
 * (docs.slack.dev, chat.postMessage rate limits). A bucket of 4 refilled once a second.
 */
export const POSTS_PER_CHANNEL = { burst: 4, everyMs: 1000 };

/** A fault the fake shows for a while: Slack's own error, an HTTP status, or a dropped connection. */
export interface Fault {
  methods: string[] | '*';
  /** `http500`, `network` (connection reset), `ratelimited` (429), or a Slack error string. */
  error: string;
  forMs: number;
  /** The window opens at the first request this says yes to (at once without it). */
  from?: (method: string, args: Record<string, unknown>) => boolean;
  /** Only calls in this channel fail. */
  channel?: string;
  until?: number;
}

/**
 * An in-repo fake of the Slack Web API for end-to-end tests: the methods the
 * app calls, with Slack's wire format (form or JSON bodies, `ok`/`error`
 * JSON), Slack's size limits, a Tier 3 budget on chat.update, channels the
 * bot is not in, 429 + Retry-After on demand, files v2 and response_url.
 */
export async function fakeSlackServer(options: { updatesPerMinute?: number } = {}) {
  const calls: FakeCall[] = [];
  const messages: FakeMessage[] = [];
  const responses: { url: string; body: Record<string, unknown> }[] = [];
  const files: {
    id: string;
    title?: string;
    content: string;
    channel?: string;
    threadTs?: string;
    deleted?: boolean;
    bytes?: Buffer;
  }[] = [];
  const notInChannel = new Set<string>();
  const archived = new Set<string>();
  const admins = new Set<string>();
  /** The bytes of files people shared, by file id. */
  const downloads = new Map<string, Buffer>();
  /** People's display names (users.info profile), by user id. */
  const people = new Map<string, string>();
  /** People's time zones (users.info tz), by user id. */
  const timeZones = new Map<string, string>();
  /** People whose account was deactivated (users.info deleted). */
  const deactivated = new Set<string>();
  /** Who is in each conversation (conversations.members); a conversation not listed has none. */
  const members = new Map<string, string[]>();
  /** Who is in each user group (usergroups.users.list), by group id. */
  const groups = new Map<string, string[]>();
  /** Refuse charts and data tables (a Slack without them); why each refused one was malformed. */
  const refusesDataBlocks = { on: false };
  const dataBlockProblems: string[] = [];
  const forced: { method: string; count: number; retryAfter: number }[] = [];
  const updates: number[] = [];
  const reactions = new Map<string, string[]>();
  const faults: Fault[] = [];
  const held: { when: (method: string, args: Record<string, unknown>) => boolean; arrived: () => void }[] =
    [];
  const slow: { method: string; ms: number; arrived: () => void }[] = [];
  /** The status lines the app set on each direct-message thread, by `channel:thread_ts`. */
  const assistant = new Map<string, { statuses?: string[] }>();
  const assistantThread = (channel: string, threadTs: string) => {
    const key = `${channel}:${threadTs}`;
    if (!assistant.has(key)) assistant.set(key, {});
    return assistant.get(key)!;
  };
  const canvases = fakeCanvases(parseJson);
  const agents = fakeAgents(parseJson);
  const views: { trigger: string; view: Record<string, unknown> }[] = [];
  /** Each person's published Home tab, the latest. */
  const homes = new Map<string, Record<string, unknown>>();
  const streams = fakeStreams(messages, () => nextTs(), parseJson);
  const postBuckets = new Map<string, { tokens: number; at: number }>();
  /** 429s the fake's own limits gave (not the injected ones): our app should cause none. */
  const stats = { postLimited: 0, updateLimited: 0 };
  let clock = 0;
  let port = 0;
  let socketMode: { appToken: string; url: () => string } | undefined;

  // Unique, increasing, and on the real clock (the app looks messages up by time).
  const nextTs = () => {
    clock = Math.max(clock + 1, Date.now());
    return `${Math.floor(clock / 1000)}.${String((clock % 1000) * 1000).padStart(6, '0')}`;
  };
  const takePost = (channel: string) => {
    const now = Date.now();
    const bucket = postBuckets.get(channel) ?? { tokens: POSTS_PER_CHANNEL.burst, at: now };
    postBuckets.set(channel, bucket);
    const refill = Math.floor((now - bucket.at) / POSTS_PER_CHANNEL.everyMs);
    if (refill > 0) {
      bucket.tokens = Math.min(POSTS_PER_CHANNEL.burst, bucket.tokens + refill);
      bucket.at += refill * POSTS_PER_CHANNEL.everyMs;
    }
    if (bucket.tokens === 0) return false;
    bucket.tokens -= 1;
    return true;
  };
  const find = (channel: string, ts: string) =>
    messages.find((m) => m.channel === channel && m.ts === ts && !m.deleted);

  function checkMessage(args: Record<string, unknown>): string | undefined {
    if (args.link_names) return 'link_names_not_allowed';
    const text = typeof args.text === 'string' ? args.text : '';
    const blocks = parseBlocks(args.blocks);
    if (!text && blocks.length === 0) return 'no_text';
    if (text.length > FAKE_LIMITS.text) return 'msg_too_long';
    if (blocks.length > FAKE_LIMITS.blocks) return 'invalid_blocks';
    let total = 0;
    for (const block of blocks) {
      const own = block.text?.text ?? '';
      if (block.type === 'section' && own.length > FAKE_LIMITS.section) return 'invalid_blocks';
      if (block.type === 'context_actions' && !validContextActions(block)) return 'invalid_blocks';
      total += own.length;
      for (const element of block.elements ?? []) {
        total += typeof element.text === 'string' ? element.text.length : (element.text?.text.length ?? 0);
      }
    }
    if (total > FAKE_LIMITS.blockText) return 'msg_blocks_too_long';
    const data = blocks as unknown as Record<string, unknown>[];
    if (data.some((b) => DATA_BLOCKS.has(String(b.type)))) {
      // A workspace or client whose Slack has no such blocks yet refuses them.
      if (refusesDataBlocks.on) return 'invalid_blocks';
      const problem = dataBlockProblem(data);
      if (problem) {
        dataBlockProblems.push(problem);
        return 'invalid_blocks';
      }
    }
    return undefined;
  }

  function handle(
    method: string,
    args: Record<string, unknown>,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const force = forced.find((f) => f.method === method && f.count > 0);
    if (force) {
      force.count -= 1;
      return {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(force.retryAfter) },
      };
    }
    const channel = String(args.channel ?? args.channel_id ?? '');
    const refuseChannel = () =>
      notInChannel.has(channel)
        ? 'not_in_channel'
        : archived.has(channel)
          ? 'is_archived'
          : channel.startsWith('G404')
            ? 'channel_not_found'
            : undefined;
    switch (method) {
      case 'auth.test':
        return ok({
          url: 'https://test.slack.com/',
          team: 'Test',
          user: 'deep-research',
          team_id: 'T1',
          user_id: 'UBOT',
          bot_id: 'BBOT',
        });
      case 'chat.postMessage': {
        const refused = refuseChannel() ?? checkMessage(args);
        if (refused) return fail(refused);
        if (!takePost(channel)) {
          stats.postLimited += 1;
          return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '1' } };
        }
        const message: FakeMessage = {
          channel,
          ts: nextTs(),
          threadTs: args.thread_ts ? String(args.thread_ts) : undefined,
          text: String(args.text ?? ''),
          blocks: parseBlocks(args.blocks),
          history: [],
          metadata: parseJson(args.metadata) as FakeMessage['metadata'],
        };
        message.history.push(render(message));
        messages.push(message);
        return ok({ channel, ts: message.ts, message: { text: message.text } });
      }
      case 'chat.update': {
        const now = Date.now();
        while (updates.length && updates[0]! <= now - 60_000) updates.shift();
        if (updates.length >= (options.updatesPerMinute ?? 50)) {
          stats.updateLimited += 1;
          return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '5' } };
        }
        updates.push(now);
        const message = find(channel, String(args.ts));
        if (!message) return fail('message_not_found');
        const refused = streams.refusesUpdate(channel, message.ts) ?? checkMessage(args);
        if (refused) return fail(refused);
        message.text = String(args.text ?? '');
        message.blocks = parseBlocks(args.blocks);
        message.history.push(render(message));
        return ok({ channel, ts: message.ts });
      }
      case 'chat.delete': {
        const message = find(channel, String(args.ts));
        if (!message) return fail('message_not_found');
        message.deleted = true;
        return ok({ channel, ts: message.ts });
      }
      case 'chat.postEphemeral': {
        const refused = refuseChannel() ?? checkMessage(args);
        return refused ? fail(refused) : ok({ message_ts: nextTs() });
      }
      case 'chat.getPermalink':
        return ok({
          permalink: `https://test.slack.com/archives/${channel}/p${String(args.message_ts).replace('.', '')}`,
        });
      case 'reactions.add':
      case 'reactions.remove': {
        // People's own messages (mentions) are not in `messages`, so reactions are kept by channel and ts.
        const key = `${channel}:${String(args.timestamp)}`;
        const list = reactions.get(key) ?? [];
        reactions.set(key, list);
        const name = String(args.name);
        if (method === 'reactions.add') {
          if (list.includes(name)) return fail('already_reacted');
          list.push(name);
        } else {
          if (!list.includes(name)) return fail('no_reaction');
          list.splice(list.indexOf(name), 1);
        }
        return ok({});
      }
      case 'conversations.members': {
        // A conversation the test did not describe has no members the app could tell anyone about.
        const list = members.get(channel) ?? [];
        // Two pages, as Slack pages long lists.
        const from = args.cursor ? Number(args.cursor) : 0;
        const size = Math.max(1, Math.ceil(list.length / 2));
        const next = from + size < list.length ? String(from + size) : '';
        return ok({ members: list.slice(from, from + size), response_metadata: { next_cursor: next } });
      }
      case 'users.info':
        return ok({
          user: {
            id: args.user,
            is_admin: admins.has(String(args.user)),
            is_owner: false,
            deleted: deactivated.has(String(args.user)),
            // Slack's default for a person who set none.
            tz: timeZones.get(String(args.user)) ?? 'America/Los_Angeles',
            profile: { display_name: people.get(String(args.user)) ?? '' },
          },
        });
      case 'usergroups.users.list': {
        const list = groups.get(String(args.usergroup));
        return list ? ok({ users: list }) : fail('no_such_subteam');
      }
      // files.delete: the app's own files; a file already gone is file_not_found (docs.slack.dev).
      case 'files.delete': {
        const file = files.find((f) => f.id === args.file);
        if (!file || file.deleted) return fail('file_not_found');
        file.deleted = true;
        for (const m of messages) if (m.files?.some((f) => f.id === file.id)) m.deleted = true;
        return ok({});
      }
      // A channel the bot was removed from is one it is not a member of; a private one it cannot see is not found.
      case 'conversations.info':
        if (channel.startsWith('G404')) return fail('channel_not_found');
        return ok({
          channel: { id: channel, is_archived: archived.has(channel), is_member: !notInChannel.has(channel) },
        });
      case 'files.getUploadURLExternal': {
        const id = `F${files.length + 1}`;
        files.push({ id, content: '' });
        return ok({ upload_url: `http://127.0.0.1:${port}/upload/${id}`, file_id: id });
      }
      case 'files.completeUploadExternal': {
        const refused = refuseChannel();
        if (refused) return fail(refused);
        const list = parseJson(args.files) as { id: string; title?: string }[];
        for (const f of list) {
          const file = files.find((x) => x.id === f.id);
          if (file) Object.assign(file, { title: f.title, channel, threadTs: args.thread_ts });
        }
        // Slack shares the files in a message of their own.
        messages.push({
          channel,
          ts: nextTs(),
          threadTs: args.thread_ts ? String(args.thread_ts) : undefined,
          text: '',
          blocks: [],
          history: [''],
          files: list.map((f) => ({ id: f.id })),
        });
        return ok({ files: list.map((f) => ({ id: f.id, title: f.title })) });
      }
      case 'conversations.open':
        return ok({ channel: { id: `D${String(args.users)}` } });
      case 'conversations.replies':
      case 'conversations.history': {
        const oldest = Number(args.oldest ?? 0);
        const found = messages.filter(
          (m) =>
            m.channel === channel &&
            !m.deleted &&
            Number(m.ts) >= oldest &&
            (method === 'conversations.replies'
              ? m.ts === args.ts || m.threadTs === args.ts
              : !m.threadTs || m.threadTs === m.ts),
        );
        const withMetadata = String(args.include_all_metadata) === 'true';
        return ok({
          messages: found.map((m) => ({
            ts: m.ts,
            ...(m.user ? { user: m.user } : { bot_id: 'BBOT' }),
            text: m.text,
            ...(m.files ? { files: m.files } : {}),
            ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
          })),
        });
      }
      // Modals (docs.slack.dev: views.open): a fresh trigger, a modal with a title of at most 24 characters.
      case 'views.open': {
        const view = parseJson(args.view) as
          | { type?: string; title?: { text?: string }; callback_id?: string; blocks?: unknown[] }
          | undefined;
        if (!args.trigger_id) return fail('invalid_trigger_id');
        if (view?.type !== 'modal' || !view.title?.text || view.title.text.length > 24)
          return fail('invalid_arguments');
        if ((view.blocks ?? []).length > 100) return fail('invalid_blocks');
        views.push({ trigger: String(args.trigger_id), view: view as Record<string, unknown> });
        return ok({ view: { id: `V${views.length}`, ...view } });
      }
      // The Home tab (docs.slack.dev: views.publish): a home view of at most 100 blocks, per person.
      case 'views.publish': {
        const view = parseJson(args.view) as { type?: string; blocks?: unknown[] } | undefined;
        if (!args.user_id) return fail('invalid_arguments');
        if (view?.type !== 'home' || (view.blocks ?? []).length > 100) return fail('invalid_arguments');
        homes.set(String(args.user_id), view as Record<string, unknown>);
        return ok({ view: { id: `VH${homes.size}`, ...view } });
      }
      // A direct-message thread's status line (docs.slack.dev: assistant.threads.setStatus).
      case 'assistant.threads.setStatus': {
        if (!args.channel_id || !args.thread_ts || typeof args.status !== 'string')
          return fail('invalid_arguments');
        const thread = assistantThread(String(args.channel_id), String(args.thread_ts));
        thread.statuses = [...(thread.statuses ?? []), String(args.status)];
        return ok({});
      }
      default: {
        const answer =
          canvases.handle(method, args) ?? streams.handle(method, args) ?? agents.handle(method, args);
        if (!answer) return fail('unknown_method');
        return answer.ok ? ok(answer.body) : fail(answer.error);
      }
    }
  }

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/upload/')) {
      const file = files.find((f) => f.id === url.pathname.slice('/upload/'.length));
      if (file) {
        file.content = uploadedText(raw, String(req.headers['content-type'] ?? ''));
        // The app posts the file's bytes as the body (files v2): a binary file is kept as sent.
        file.bytes = raw;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK - 1');
      return;
    }
    if (url.pathname.startsWith('/response/')) {
      responses.push({ url: url.pathname, body: JSON.parse(raw.toString('utf8') || '{}') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    // A shared file's private address: only with the bot token, as Slack serves them.
    if (url.pathname.startsWith('/files-pri/')) {
      const shared = downloads.get(url.pathname.split('/')[2] ?? '');
      const authorised = req.headers.authorization === 'Bearer xoxb-test-token';
      calls.push({
        method: 'files-pri',
        args: { path: url.pathname },
        at: Date.now(),
        status: authorised ? 200 : 302,
      });
      if (!shared || !authorised) {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!DOCTYPE html><html>Sign in to Slack</html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(shared);
      return;
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args = parseArgs(raw.toString('utf8'), String(req.headers['content-type'] ?? ''));
    if (method === 'apps.connections.open') {
      // Only an app-level token opens a socket; a bot token is the wrong kind.
      const auth = req.headers.authorization;
      const result = !socketMode
        ? fail('not_allowed_token_type')
        : auth === `Bearer ${socketMode.appToken}`
          ? ok({ url: socketMode.url() })
          : fail(auth?.startsWith('Bearer xapp-') ? 'invalid_auth' : 'not_allowed_token_type');
      const error = (result.body as { error?: string }).error;
      calls.push({ method, args, at: Date.now(), status: result.status, error });
      send(res, result);
      return;
    }
    if (req.headers.authorization !== 'Bearer xoxb-test-token') {
      send(res, { status: 200, body: { ok: false, error: 'invalid_auth' } });
      return;
    }
    for (const f of faults) {
      if (f.until === undefined && (!f.from || f.from(method, args))) f.until = Date.now() + f.forMs;
    }
    const fault = faults.find(
      (f) =>
        f.until !== undefined &&
        Date.now() < f.until &&
        (f.methods === '*' || f.methods.includes(method)) &&
        (!f.channel || f.channel === String(args.channel ?? args.channel_id ?? '')),
    );
    if (fault) {
      calls.push({ method, args, at: Date.now(), status: 0, error: `fault:${fault.error}` });
      if (fault.error === 'network') req.socket.destroy();
      else if (fault.error === 'http500') send(res, { status: 500, body: { ok: false } });
      else if (fault.error === 'ratelimited') {
        send(res, {
          status: 429,
          body: { ok: false, error: 'ratelimited' },
          headers: { 'retry-after': '2' },
        });
      } else send(res, { status: 200, body: { ok: false, error: fault.error } });
      return;
    }
    const lag = slow.findIndex((s) => s.method === method);
    if (lag >= 0) {
      const { ms, arrived } = slow.splice(lag, 1)[0]!;
      arrived();
      await new Promise((r) => setTimeout(r, ms));
    }
    const hold = held.findIndex((h) => h.when(method, args));
    if (hold >= 0) {
      // Slack takes the request only once the caller has gone: its answer is never read.
      held.splice(hold, 1)[0]!.arrived();
      req.socket.once('close', () => {
        const late = handle(method, args);
        calls.push({ method, args, at: Date.now(), status: late.status, error: 'held' });
      });
      return;
    }
    const result = handle(method, args);
    const error = (result.body as { error?: string }).error;
    calls.push({ method, args, at: Date.now(), status: result.status, error });
    send(res, result);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    responseUrl: (id: string) => `http://127.0.0.1:${port}/response/${id}`,
    calls,
    messages,
    responses,
    files,
    notInChannel,
    archived,
    /** Modals the app opened. */
    views,
    /** Canvases the app made (deleted ones marked). */
    canvases: canvases.canvases,
    /** The status lines the app set on a direct-message thread. */
    assistantThread: (channel: string, threadTs: string) => assistant.get(`${channel}:${threadTs}`),
    /** Agent sessions (statuses, titles) and the Messages tab's example questions. */
    agents,
    /**
     * The person pressed Stop on the thread's agent session: Slack stops the
     * thread's streams itself; returns their ts (the event's streaming_message_ts).
     */
    stopByUser: (channel: string, threadTs: string) => streams.stopByUser(channel, threadTs),
    /** Reactions on a message (the bot's or a person's), by channel and ts. */
    reactionsOn: (channel: string, ts: string) => reactions.get(`${channel}:${ts}`) ?? [],
    admins,
    members,
    /** User groups' members (usergroups.users.list), by group id. */
    groups,
    /** Set `on` for a Slack that refuses charts and data tables (invalid_blocks). */
    refusesDataBlocks,
    /** Why each malformed chart or data table was refused. */
    dataBlockProblems,
    people,
    timeZones,
    deactivated,
    /**
     * A person shares a file (a `file_share` message in the conversation, or a
     * thread reply); `size` overrides the size Slack reports. Returns its ts and file id.
     */
    shareFile(
      channel: string,
      user: string,
      name: string,
      content: Buffer,
      options: { threadTs?: string; size?: number; text?: string } = {},
    ) {
      const id = `FS${downloads.size + 1}`;
      downloads.set(id, content);
      const ts = nextTs();
      const file = {
        id,
        name,
        size: options.size ?? content.length,
        url_private_download: `http://127.0.0.1:${port}/files-pri/${id}/${encodeURIComponent(name)}`,
        permalink: `https://test.slack.com/files/${user}/${id}/${encodeURIComponent(name)}`,
      };
      const text = options.text ?? '';
      messages.push({
        channel,
        ts,
        threadTs: options.threadTs,
        text,
        blocks: [],
        history: [text],
        user,
        files: [file],
      });
      return { ts, id };
    },
    /** A person's message in a conversation (a thread reply with `threadTs`), as people write them; its ts. */
    say(channel: string, user: string, text: string, threadTs?: string): string {
      const ts = nextTs();
      messages.push({ channel, ts, threadTs, text, blocks: [], history: [text], user });
      return ts;
    },
    homes,
    stats,
    /** For `forMs`, calls to `methods` fail as `error` says (see Fault). */
    fault(fault: Fault) {
      faults.push(fault);
    },
    clearFaults() {
      faults.length = 0;
    },
    /**
     * The next matching call is taken only after its client disconnects, and
     * never answered; resolves when it arrives.
     */
    holdUntilCallerGone(when: (method: string, args: Record<string, unknown>) => boolean): Promise<void> {
      return new Promise((arrived) => held.push({ when, arrived }));
    },
    /** The next call to `method` is answered `ms` late; resolves when it arrives. */
    answerLate(method: string, ms: number): Promise<void> {
      return new Promise((arrived) => slow.push({ method, ms, arrived }));
    },
    /** The next `count` calls to `method` get 429 with Retry-After. */
    rateLimit(method: string, count: number, retryAfterSeconds: number) {
      forced.push({ method, count, retryAfter: retryAfterSeconds });
    },
    /** Messages in a thread (root first), as they look now. */
    thread(channel: string, threadTs: string) {
      return messages.filter(
        (m) => m.channel === channel && !m.deleted && (m.ts === threadTs || m.threadTs === threadTs),
      );
    },
    /** Answers apps.connections.open for `appToken` with a URL of the fake Socket Mode server. */
    serveSocketMode(appToken: string, url: () => string) {
      socketMode = { appToken, url };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeSlack = Awaited<ReturnType<typeof fakeSlackServer>>;

/** All the text a person would read in a message: top-level text is a fallback, the blocks are the message. */
/**
 * Slack's rules for a context_actions block: 1 to 5 elements, feedback buttons
 * with both buttons, plain-text labels of at most 75 characters and values of
 * at most 2,000.
 */
function validContextActions(block: Block): boolean {
  const elements = (block.elements ?? []) as unknown as Record<string, unknown>[];
  if (elements.length < 1 || elements.length > 5) return false;
  return elements.every((e) => {
    if (e.type === 'icon_button') return true;
    if (e.type !== 'feedback_buttons') return false;
    return [e.positive_button, e.negative_button].every((b) => {
      const button = b as { text?: { type?: string; text?: string }; value?: unknown } | undefined;
      return (
        button?.text?.type === 'plain_text' &&
        typeof button.text.text === 'string' &&
        button.text.text.length <= 75 &&
        typeof button.value === 'string' &&
        button.value.length <= 2000
      );
    });
  });
}

export function render(message: { text: string; blocks: Block[] }): string {
  if (message.blocks.length === 0) return message.text;
  return message.blocks
    .flatMap((b) => [
      b.text?.text ?? '',
      ...(b.elements ?? []).map((e) => (typeof e.text === 'string' ? e.text : (e.text?.text ?? ''))),
    ])
    .filter(Boolean)
    .join('\n');
}

function ok(body: Record<string, unknown>) {
  return { status: 200, body: { ok: true, ...body } };
}

function fail(error: string) {
  return { status: 200, body: { ok: false, error } };
}

function send(
  res: ServerResponse,
  result: { status: number; body: unknown; headers?: Record<string, string> },
) {
  res
    .writeHead(result.status, { 'content-type': 'application/json', ...result.headers })
    .end(JSON.stringify(result.body));
}

function parseBlocks(value: unknown): Block[] {
  if (!value) return [];
  if (typeof value === 'string') return JSON.parse(value) as Block[];
  return value as Block[];
}

function parseJson(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? JSON.parse(value) : value;
}

function parseArgs(body: string, contentType: string): Record<string, unknown> {
  if (contentType.includes('application/json')) return body ? JSON.parse(body) : {};
  return Object.fromEntries(new URLSearchParams(body));
}

/** files v2 uploads arrive as multipart form data or a raw body. */
function uploadedText(raw: Buffer, contentType: string): string {
  const boundary = /boundary=([^;]+)/.exec(contentType)?.[1];
  const text = raw.toString('utf8');
  if (!boundary) return text;
  const part = text.split(`--${boundary}`).find((p) => p.includes('filename='));
  return part ? part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '') : text;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
