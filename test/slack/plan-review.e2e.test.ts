import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, FORM, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000600.${String(++tsCounter).padStart(6, '0')}`;

/** Asks with a mention in C1; returns the thread's ts and the plan message once it offers its review. */
async function askForPlan(h: SlackHarness, url: string): Promise<{ ts: string; plan: FakeMessage }> {
  const ts = userTs();
  const event = { type: 'app_mention', channel: 'C1', user: 'UANN', text: '<@UBOT> How do tides work?', ts };
  await signedPost(url, eventCallback(event), JSON_TYPE);
  const plan = await eventually(
    () => h.slack.thread('C1', ts).find((m) => buttons(m).includes('research_edit_plan')),
    20_000,
    'the plan with its review buttons',
  );
  return { ts, plan };
}

const buttons = (m: FakeMessage) =>
  (m.blocks.find((b) => b.type === 'actions')?.elements ?? []).map((e) => e.action_id);
const researched = (h: SlackHarness) =>
  h.model.requests.filter((r) => r.tools?.some((t) => t.function.name === 'research_agent')).length;

describe('plan review', () => {
  it('waits for [Start now] from the requester (not someone else), with an estimate, then researches once', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 2 }), { PLAN_REVIEW_SECONDS: '600' });
    const app = await h.start();
    const { ts, plan } = await askForPlan(h, app.url);
    expect(buttons(plan)).toEqual(['research_start_now', 'research_edit_plan', 'research_cancel']);
    expect(render(plan)).toMatch(/^:clipboard: \*Research plan\*\n1\. Topic 1\n2\. Topic 2\n/);
    expect(render(plan)).toMatch(
      /\nEstimate: 3m 00s–20m 00s · \$\d+\.\d\d–\$\d+\.\d\d \(rough, from the settings\) · starts by itself in 10m 00s\n/,
    );
    expect(await storedSessions(h)).toMatchObject([{ status: 'reviewing' }]);
    expect(researched(h)).toBe(0);

    const click = (user: string) =>
      signedPost(
        app.url,
        buttonClick(
          'research_start_now',
          String(plan.blocks.at(-1)!.elements![0]!.value),
          user,
          {
            channel: 'C1',
            ts: plan.ts,
            threadTs: ts,
          },
          h!.slack.responseUrl(`start-${user}`),
        ),
        FORM,
      );
    await click('UBOB');
    const refusal = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/start-UBOB')),
      5000,
      'refusal',
    );
    expect(refusal.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'Only <@UANN> (who asked) or a workspace admin can start this research.',
    });
    expect(await storedSessions(h)).toMatchObject([{ status: 'reviewing' }]);

    await Promise.all([click('UANN'), click('UANN')]);
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
    expect(await storedSessions(h)).toMatchObject([{ status: 'done' }]);
    // The plan now runs: its review buttons gave way to Cancel while research ran, and then to nothing.
    await eventually(() => buttons(plan).length === 0, 5000, 'plan without buttons');
    expect(plan.history.some((v) => v.includes('Estimate:'))).toBe(true);
    expect(h.slack.thread('C1', ts).filter((m) => m.stream)).toHaveLength(1);
  }, 60_000);

  it('starts by itself when PLAN_REVIEW_SECONDS have passed', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { PLAN_REVIEW_SECONDS: '2' });
    const app = await h.start();
    const { ts } = await askForPlan(h, app.url);
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
    expect(await storedSessions(h)).toMatchObject([{ status: 'done' }]);
  }, 60_000);

  it('is cancelled from the plan, which loses its buttons', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { PLAN_REVIEW_SECONDS: '600' });
    const app = await h.start();
    const { ts, plan } = await askForPlan(h, app.url);
    await signedPost(
      app.url,
      buttonClick(
        'research_cancel',
        String(plan.blocks.at(-1)!.elements![2]!.value),
        'UANN',
        {
          channel: 'C1',
          ts: plan.ts,
          threadTs: ts,
        },
        h.slack.responseUrl('cancel'),
      ),
      FORM,
    );
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('no_entry_sign'), 10_000, 'cancelled');
    await eventually(() => buttons(plan).length === 0, 5000, 'plan without buttons');
    expect(await storedSessions(h)).toMatchObject([{ status: 'cancelled' }]);
    expect(researched(h)).toBe(0);
  }, 60_000);
});
