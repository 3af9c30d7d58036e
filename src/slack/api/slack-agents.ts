import type { SlackApi } from './slack-api.js';

// Slack's agent messaging (docs.slack.dev/ai/agent-sessions): each research thread is an agent session whose
// status tells the person whether the app is working (`processing`, with Slack's own Stop button), waiting for
// them (`active`) or done with the thread (`closed`).

export type AgentStatus = 'processing' | 'active' | 'closed';

/** What an `agent_status` outbox intent carries (slack_outbox.payload). */
export interface AgentStatusPayload {
  status: AgentStatus;
  threadTs: string;
  /** The session's name in Slack, set when this write opens it: the question. */
  title?: string;
  /** Who opened it (the requester), with the title. */
  initiator?: string;
}

/** Slack's longest agent session title. */
const TITLE_MAX = 200;

/**
 * Sets the thread's agent session status, creating the session if Slack has
 * none yet. A session Slack already made (the person's message in the
 * Messages tab opens one) keeps the title it was given, so ours is set by a
 * rename when it differs.
 */
export async function setAgentStatus(api: SlackApi, channel: string, p: AgentStatusPayload): Promise<void> {
  const title = p.title?.slice(0, TITLE_MAX);
  const result = (await api.call('agents.sessions.setStatus', () =>
    api.client.agents.sessions.setStatus({
      channel_id: channel,
      thread_ts: p.threadTs,
      status: p.status,
      ...(title ? { title, initiator_user_id: p.initiator } : {}),
    }),
  )) as { title?: string };
  if (title && typeof result.title === 'string' && result.title !== title) {
    await api.call('agents.sessions.rename', () =>
      api.client.agents.sessions.rename({ channel_id: channel, thread_ts: p.threadTs, title }),
    );
  }
}

/**
 * Example questions in the person's Messages tab with the app. Agent apps set
 * them on the conversation: a `thread_ts` makes Slack ignore the call.
 */
export async function suggestPrompts(
  api: SlackApi,
  channel: string,
  prompts: { title: string; message: string }[],
): Promise<void> {
  await api.call('assistant.threads.setSuggestedPrompts', () =>
    api.client.assistant.threads.setSuggestedPrompts({ channel_id: channel, prompts }),
  );
}
