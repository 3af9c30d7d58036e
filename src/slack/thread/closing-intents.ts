import type { SessionView } from '../../ports/research.js';
import type { OutboxIntent } from '../../sessions/records/outbox-intent.js';
import type { SessionRow, SessionStore } from '../../sessions/records/session-store.js';
import { clarifyMessage, type Ending, rootMessage } from '../render/messages.js';
import { planMessage } from '../render/plan-message.js';
import { SessionThread } from './session-thread.js';
import { ThreadMessages } from './thread-roles.js';

/** The thread of a stored session, with the requester's mention when it started from one. */
export async function threadOf(sessions: SessionStore, row: SessionRow): Promise<SessionThread> {
  const owned = new ThreadMessages(await sessions.slackMessages(row.id));
  return SessionThread.of(row, owned.get({ kind: 'mention' })?.ts);
}

/**
 * A session that ends before research (cancelled, expired) while it waited
 * for answers or for its plan to be started: the questions or the plan lose
 * their buttons and the root (or the mention's reactions) shows how it ended.
 */
export async function closingIntents(
  sessions: SessionStore,
  row: SessionRow,
  view: SessionView | null,
  ending: Ending,
): Promise<OutboxIntent[]> {
  const thread = await threadOf(sessions, row);
  const opener = [
    ...thread.finishOpener(
      rootMessage(row.requester, row.question, ending, Boolean(row.scheduleId)),
      ending.kind,
    ),
    thread.agentStatus('closed', 'end'),
  ];
  if (row.status === 'reviewing')
    return [
      thread.edit({ kind: 'plan' }, planMessage(view?.plan ?? '', undefined, view ?? undefined)),
      ...opener,
    ];
  const questions = view?.clarification?.questions ?? '';
  return [
    thread.edit({ kind: 'clarify' }, clarifyMessage(questions, row.id, { kind: 'closed', ending })),
    ...opener,
  ];
}
