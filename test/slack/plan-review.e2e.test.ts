import { afterEach, describe, expect, it } from 'vitest';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import {
  eventually,
  type SlackHarness,
  sessionsAtRest,
  slackHarness,
  storedSessions,
} from '../helpers/slack-harness.js';
import {
  buttonClick,
  eventCallback,
  FORM,
  JSON_TYPE,
  signedPost,
  viewSubmission,
} from '../helpers/slack-requests.js';

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
    expect(await sessionsAtRest(h)).toMatchObject([{ status: 'done' }]);
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
    expect(await sessionsAtRest(h)).toMatchObject([{ status: 'done' }]);
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

  it('edits the plan in a modal: the thread shows it, and it is the plan the orchestrator receives', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { PLAN_REVIEW_SECONDS: '600' });
    const app = await h.start();
    const { ts, plan } = await askForPlan(h, app.url);
    const sessionId = String(plan.blocks.at(-1)!.elements![1]!.value);
    const click = (action: string, user: string) =>
      signedPost(
        app.url,
        buttonClick(
          action,
          sessionId,
          user,
          { channel: 'C1', ts: plan.ts, threadTs: ts },
          h!.slack.responseUrl(`${action}-${user}`),
        ),
        FORM,
      );
    await click('research_edit_plan', 'UBOB');
    const refused = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/research_edit_plan-UBOB')),
      5000,
      'refusal',
    );
    expect(refused.body.text).toBe(
      "Only <@UANN> (who asked) or a workspace admin can edit this research's plan.",
    );
    await click('research_edit_plan', 'UANN');
    const opened = await eventually(() => h!.slack.views[0], 5000, 'the editor');
    expect(JSON.stringify(opened.view)).toContain('1. Topic 1');

    const submit = (text: string) =>
      signedPost(
        app.url,
        viewSubmission('research_plan_edit', sessionId, 'UANN', {
          block: 'plan',
          action: 'plan',
          value: text,
        }),
        FORM,
      );
    const tooLong = await submit(Array.from({ length: 7 }, (_, i) => `${i + 1}. Step ${i + 1}`).join('\n'));
    expect(JSON.parse(tooLong.body)).toEqual({
      response_action: 'errors',
      errors: { plan: 'A plan has at most 6 steps; this one has 7.' },
    });
    const saved = await submit('1. Tidal forces in the Bay of Fundy\n2. Tide prediction tables');
    expect(saved.status).toBe(200);
    await eventually(() => render(plan).includes('Plan edited by <@UANN>'), 5000, 'edited plan shown');
    expect(render(plan)).toContain('1. Tidal forces in the Bay of Fundy');

    await click('research_start_now', 'UANN');
    await eventually(() => h!.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
    const orchestrator = h.model.requests.find((r) =>
      r.tools?.some((t) => t.function.name === 'research_agent'),
    )!;
    expect(JSON.stringify(orchestrator.messages)).toContain('Tidal forces in the Bay of Fundy');
    expect(JSON.stringify(orchestrator.messages)).not.toContain('1. Topic 1');
  }, 60_000);
});
