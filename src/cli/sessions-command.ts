import type { Store } from '../compose.js';
import type { OutboxRow } from '../store/outbox-store.js';
import type { SessionRow, SessionStore } from '../store/session-store.js';
import type { Io } from './ask-command.js';
import { terminalReport } from './ask-command.js';

/** `deep-research sessions list`: the latest sessions, newest first. */
export async function listSessions(store: SessionStore, io: Io, limit = 20): Promise<number> {
  const rows = await store.listRecent({ limit });
  if (rows.length === 0) {
    io.stdout.write('No sessions yet. Start one with: deep-research ask "your question"\n');
    return 0;
  }
  for (const s of rows) {
    const when = s.createdAt.toISOString().slice(0, 16).replace('T', ' ');
    io.stdout.write(`${s.id.slice(0, 8)}  ${when}  ${s.status.padEnd(13)}  ${oneLine(s.question, 70)}\n`);
  }
  return 0;
}

/** `deep-research sessions show ID`: a past session and its report (an id prefix is enough). */
export async function showSession(
  store: Pick<Store, 'sessions' | 'outbox'>,
  id: string,
  io: Io,
): Promise<number> {
  const matches = await store.sessions.findByIdPrefix(id);
  if (matches.length !== 1) {
    io.stderr.write(
      matches.length === 0
        ? `error: no session matches "${id}"; see deep-research sessions list.\n`
        : `error: "${id}" matches ${matches.length} sessions; give more of the id.\n`,
    );
    return 1;
  }
  const session = matches[0]!;
  io.stdout.write(describe(session, await store.outbox.forSession(session.id)));
  return 0;
}

function describe(s: SessionRow, outbox: OutboxRow[]): string {
  const lines = [
    `Session ${s.id}`,
    `Question: ${s.question}`,
    `Status: ${s.status} · requested by ${s.requester} · ${s.createdAt.toISOString()}`,
  ];
  if (s.error) lines.push(`Error: ${s.error}`);
  if (s.deliveryNote) lines.push(`Delivery: ${s.deliveryNote}`);
  const pending = outbox.filter((o) => o.state === 'pending');
  if (pending.length) {
    const last = pending.find((o) => o.lastError)?.lastError;
    lines.push(
      `Slack: ${pending.length} ${pending.length === 1 ? 'write' : 'writes'} waiting to be delivered${last ? ` (last error: ${last})` : ''}`,
    );
  }
  if (s.plan) lines.push('', 'Research plan:', s.plan);
  if (s.report) lines.push('', terminalReport(s.report));
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
