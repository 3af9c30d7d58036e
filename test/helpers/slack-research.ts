import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import type { SlackHarness } from './slack-harness.js';
import { eventually, sessionsAtRest } from './slack-harness.js';
import { buttonClick, FORM, signedPost, slashCommand } from './slack-requests.js';

/**
 * `/research <question>` as a new install has it (the plan waits for review):
 * [Start now] is clicked on the plan, and the thread's root and summary are
 * returned once the report is out and the session at rest (its delivery
 * settles after the summary is shown).
 */
export async function researchReviewed(
  h: SlackHarness,
  url: string,
  question: string,
  user: string,
  channel = 'C1',
): Promise<{ root: FakeMessage; summary: FakeMessage; sessionId: string }> {
  await signedPost(
    url,
    slashCommand(question, user, h.slack.responseUrl(`r-${question}`), { channel_id: channel }),
    FORM,
  );
  const root = await eventually(
    () => h.slack.messages.find((m) => m.channel === channel && !m.threadTs && render(m).includes(question)),
    15_000,
    'the root',
  );
  const plan = await eventually(
    () => h.slack.thread(channel, root.ts).find((m) => render(m).includes('Start now')),
    20_000,
    'the plan',
  );
  const start = plan.blocks
    .find((b) => b.type === 'actions')!
    .elements!.find((e) => e.action_id === 'research_start_now')!;
  const click = buttonClick(
    'research_start_now',
    String(start.value),
    user,
    { channel, ts: plan.ts, threadTs: root.ts },
    h.slack.responseUrl(`start-${root.ts}`),
  );
  await signedPost(url, click, FORM);
  const summary = await eventually(
    () => h.slack.thread(channel, root.ts).find((m) => render(m).startsWith(':memo:')),
    60_000,
    'the summary',
  );
  const sessionId = String(start.value);
  await sessionsAtRest(h, sessionId);
  return { root, summary, sessionId };
}
