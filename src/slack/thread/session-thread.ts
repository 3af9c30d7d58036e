import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import type { SlackMessageRef } from '../../sessions/records/session-store.js';
import type { AgentStatus, AgentStatusPayload } from '../api/slack-agents.js';
import type { SlackMessage } from '../render/messages.js';
import type { StreamChunk } from '../render/progress-chunks.js';
import { type NoticeName, roleKey, type ThreadRole } from './thread-roles.js';

/**
 * A post that depends on how the report went out, decided when it is sent:
 * the split report only if no canvas holds it, the summary only if one does.
 */
export type ShowWhen = 'canvas' | 'no-canvas';

/** What each kind of intent carries (slack_outbox.payload). */
export type PostPayload = { message: SlackMessage; when?: ShowWhen; stream?: StreamStart };
/**
 * A streamed message instead of `message` where Slack allows one: what it
 * starts with, and the person it streams to (required outside DMs).
 */
export type StreamStart = { chunks: StreamChunk[]; recipient?: { user: string; team: string } };
/**
 * `ts` when known when recorded (the root); otherwise the dispatcher finds the
 * role's message. `stop`: for a streamed message, the chunks that end it (an
 * edit with `message` if it is no longer streaming).
 */
export type UpdatePayload = { message: SlackMessage; ts?: string; stop?: StreamChunk[] };
export type ReactPayload = { name: string; ts: string };
/** What a deleted session removes: one of its messages, its report file, or its canvas. */
export type DeletePayload = { ts: string } | { file: string } | { canvas: string };
/** `encoding`: the content of a binary file (a PDF, a Word file), as base64. */
export type UploadPayload = { filename: string; title: string; content: string; encoding?: 'base64' };
/** `required`: REPORT_FORMAT=canvas, so a refusal is the operator's to fix, not only a fallback. */
export type CanvasPayload = { title: string; markdown: string; required?: boolean };

export interface ThreadPlace {
  sessionId: string;
  channelId: string;
  threadTs: string;
  /** The person's own message that started the session (mention or DM), when there is one; else a root of ours. */
  mentionTs?: string;
}

/** The reaction that marks a mention with the session's outcome. */
export const OUTCOME_REACTION = {
  done: 'white_check_mark',
  failed: 'x',
  cancelled: 'no_entry_sign',
  expired: 'hourglass',
} as const;

/**
 * The one owner of a session's thread: every message, edit, reaction and
 * file the session shows is built here as an outbox intent, keyed by its
 * typed role, for the listeners and the worker alike. Nothing here talks to
 * Slack: the dispatcher delivers the intents.
 */
export class SessionThread {
  constructor(readonly place: ThreadPlace) {}

  /** The thread of a stored Slack session; `mentionTs` from its recorded `mention` role, if any. */
  static of(
    row: { id: string; channelId: string | null; threadTs: string | null },
    mentionTs?: string,
  ): SessionThread {
    return new SessionThread({
      sessionId: row.id,
      channelId: row.channelId ?? '',
      threadTs: row.threadTs ?? '',
      mentionTs,
    });
  }

  post(role: ThreadRole, message: SlackMessage, essential = false, when?: ShowWhen): OutboxIntent {
    const key = roleKey(role);
    const payload: PostPayload = when ? { message, when } : { message };
    return this.intent('post', key, `post:${key}`, payload, essential);
  }

  notice(name: NoticeName, message: SlackMessage, essential = false): OutboxIntent {
    return this.post({ kind: 'notice', name }, message, essential);
  }

  /** A message streamed where Slack allows it (`message` where it does not). */
  stream(role: ThreadRole, message: SlackMessage, stream: StreamStart): OutboxIntent {
    const key = roleKey(role);
    return this.intent('post', key, `post:${key}`, { message, stream } satisfies PostPayload);
  }

  /** An edit of a message this session owns; the newest content recorded wins. A stream is stopped with `stop`. */
  edit(role: ThreadRole, message: SlackMessage, stop?: StreamChunk[]): OutboxIntent {
    const key = roleKey(role);
    const ts = role.kind === 'root' ? this.place.threadTs : undefined;
    const payload: UpdatePayload = stop ? { message, ts, stop } : { message, ts };
    return this.intent('update', key, `update:${key}`, payload);
  }

  /** The root's last line (a `/research` root), or the reactions on the person's message (a mention). */
  finishOpener(root: SlackMessage, outcome: keyof typeof OUTCOME_REACTION): OutboxIntent[] {
    if (!this.place.mentionTs) return [this.edit({ kind: 'root' }, root)];
    return [this.unreact('eyes'), this.react(OUTCOME_REACTION[outcome])];
  }

  /**
   * A deleted session: every message it owns goes (wherever it landed, a DM
   * too), its canvas and report file are deleted, and the root says who
   * deleted it (a mention's thread, whose root is the person's, gets a notice).
   */
  erase(owned: Map<string, SlackMessageRef>, deleted: SlackMessage): OutboxIntent[] {
    const intents: OutboxIntent[] = [];
    const remove = (role: string, where: string, payload: DeletePayload) =>
      intents.push({ ...this.intent('delete', role, `erase:${role}`, payload), channelId: where });
    for (const [role, ref] of owned) {
      if (role === 'mention' || role === 'root' || role === 'notice:deleted') continue;
      if (role === 'canvas' && ref.fileId) remove(role, ref.channelId, { canvas: ref.fileId });
      else if ((role === 'file' || role.startsWith('export:')) && ref.fileId)
        remove(role, ref.channelId, { file: ref.fileId });
      else if (ref.ts) remove(role, ref.channelId, { ts: ref.ts });
    }
    const root = owned.get('root');
    if (root?.ts)
      intents.push({
        ...this.intent('update', 'root', 'erase:root', { message: deleted, ts: root.ts }),
        channelId: root.channelId,
      });
    else if (this.place.threadTs) intents.push(this.notice('deleted', deleted));
    return intents;
  }

  react(name: string): OutboxIntent {
    return this.reaction('react', name);
  }

  unreact(name: string): OutboxIntent {
    return this.reaction('unreact', name);
  }

  /** The report as a PDF or Word file in the thread: one upload per report version, however often asked. */
  exportFile(
    format: 'pdf' | 'docx',
    version: number,
    file: { filename: string; title: string; bytes: Uint8Array },
  ): OutboxIntent {
    const role = roleKey({ kind: 'export', format, version });
    const payload: UploadPayload = {
      filename: file.filename,
      title: file.title,
      content: Buffer.from(file.bytes).toString('base64'),
      encoding: 'base64',
    };
    return this.intent('upload', role, `upload:${role}`, payload);
  }

  upload(filename: string, title: string, content: string): OutboxIntent {
    return this.intent(
      'upload',
      roleKey({ kind: 'file' }),
      'upload:file',
      { filename, title, content } satisfies UploadPayload,
      true,
    );
  }

  /**
   * The report as a canvas. Not essential: when Slack will not make or share
   * one, the split report recorded after it goes to the thread instead.
   */
  canvas(payload: CanvasPayload): OutboxIntent {
    return this.intent('canvas', roleKey({ kind: 'canvas' }), 'canvas', payload);
  }

  /**
   * The thread's agent session status. `moment` names the state change, so
   * each change is one write however often it is recorded; `opening` names
   * the session (its question and requester) when this write may create it.
   */
  agentStatus(
    status: AgentStatus,
    moment: string,
    opening?: { title: string; initiator: string },
  ): OutboxIntent {
    const payload: AgentStatusPayload = { status, threadTs: this.place.threadTs, ...opening };
    return this.intent('agent_status', 'agent', `agent:${status}:${moment}`, payload);
  }

  private reaction(op: 'react' | 'unreact', name: string): OutboxIntent {
    const ts = this.place.mentionTs ?? this.place.threadTs;
    return this.intent(op, 'mention', `${op}:${name}`, { name, ts } satisfies ReactPayload);
  }

  private intent(
    op: OutboxIntent['op'],
    role: string,
    key: string,
    payload: unknown,
    essential = false,
  ): OutboxIntent {
    return {
      key,
      op,
      role,
      channelId: this.place.channelId,
      // A scheduled run's root is posted before its thread exists: a top-level message.
      threadTs: (op === 'post' || op === 'upload') && this.place.threadTs ? this.place.threadTs : undefined,
      payload,
      essential,
    };
  }
}
