/**
 * The messages a session owns in its thread, by role. A role names one
 * message (or file, or reaction target) for the whole life of the session:
 * a resumed session finds and edits the same ones.
 */
export type ThreadRole =
  /** The channel message `/research` posts; its last line shows the outcome. */
  | { kind: 'root' }
  /** The person's own message (mention or DM) that started the session: marked with reactions. */
  | { kind: 'mention' }
  | { kind: 'clarify' }
  | { kind: 'plan' }
  | { kind: 'progress' }
  | { kind: 'report'; part: number }
  | { kind: 'sources'; part: number }
  | { kind: 'file' }
  /** The whole report as a canvas, shared with the channel (or the requester in a DM). */
  | { kind: 'canvas' }
  /** The report's summary with a link to the canvas, the usage line and the feedback buttons. */
  | { kind: 'summary' }
  | { kind: 'notice'; name: NoticeName }
  /** A reader's question about the finished report, answered (the answer's id in the store). */
  | { kind: 'answer'; id: number }
  /** The report as a PDF or Word file, one per report version. */
  | { kind: 'export'; format: 'pdf' | 'docx'; version: number };

export type NoticeName = 'queued' | 'cancelled' | 'failed' | 'fallback' | 'deleted';

/** The role's name as stored (slack_messages.role, slack_outbox.role). */
export function roleKey(role: ThreadRole): string {
  switch (role.kind) {
    case 'report':
    case 'sources':
      return `${role.kind}:${role.part}`;
    case 'notice':
      return `notice:${role.name}`;
    case 'answer':
      return `answer:${role.id}`;
    case 'export':
      return `export:${role.format}-${role.version}`;
    default:
      return role.kind;
  }
}

const SIMPLE = new Set(['root', 'mention', 'clarify', 'plan', 'progress', 'file', 'canvas', 'summary']);
const NOTICES = new Set<string>(['queued', 'cancelled', 'failed', 'fallback', 'deleted']);

export function parseRole(key: string): ThreadRole {
  const [kind, arg] = key.split(':');
  if (SIMPLE.has(kind!) && arg === undefined) return { kind } as ThreadRole;
  if ((kind === 'report' || kind === 'sources') && /^\d+$/.test(arg ?? '')) {
    return { kind, part: Number(arg) };
  }
  if (kind === 'notice' && NOTICES.has(arg ?? '')) return { kind, name: arg as NoticeName };
  if (kind === 'answer' && /^\d+$/.test(arg ?? '')) return { kind, id: Number(arg) };
  const exported = kind === 'export' ? /^(pdf|docx)-(\d+)$/.exec(arg ?? '') : null;
  if (exported)
    return { kind: 'export', format: exported[1] as 'pdf' | 'docx', version: Number(exported[2]) };
  throw new Error(`unknown thread role "${key}"`);
}

/** What a session owns in its thread, looked up by typed role (the store keys it by `roleKey`). */
export class ThreadMessages<T> {
  constructor(private readonly byKey: Map<string, T> = new Map()) {}

  get(role: ThreadRole): T | undefined {
    return this.byKey.get(roleKey(role));
  }

  has(role: ThreadRole): boolean {
    return this.byKey.has(roleKey(role));
  }

  /** A role, or its stored name as the outbox reports it. */
  set(role: ThreadRole | string, value: T): void {
    this.byKey.set(roleKey(typeof role === 'string' ? parseRole(role) : role), value);
  }
}
