import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, viewSubmission } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A block_actions payload from the Home tab (no message, a view). */
function homeAction(actionId: string, user: string, value: string, type: 'button' | 'plain_text_input') {
  const action =
    type === 'button'
      ? { action_id: actionId, block_id: 'home_paging', type, value, action_ts: `${Date.now() / 1000}` }
      : { action_id: actionId, block_id: 'home_search', type, value, action_ts: `${Date.now() / 1000}` };
  const payload = {
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), team_id: 'T1' },
    api_app_id: 'A1',
    token: 'verification-token',
    container: { type: 'view', view_id: 'VH1' },
    trigger_id: `trigger.${Date.now()}`,
    team: { id: 'T1', domain: 'test' },
    view: { id: 'VH1', type: 'home', blocks: [] },
    actions: [action],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

describe('the Home tab', () => {
  it("lists the person's running research and the reports they may see, and searches them", async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    h.slack.members.set('G1', ['UANN']);
    const app = await h.start();
    const mention = (channel: string, text: string, ts: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel, user: 'UANN', text: `<@UBOT> ${text}`, ts }),
        JSON_TYPE,
      );
    await mention('C1', 'How do tides work in the open ocean?', '1800001200.000001');
    await mention('G1', 'What does the secret harbour project cost?', '1800001200.000002');
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 2,
      60_000,
      'two reports',
    );
    const open = (user: string) =>
      signedPost(
        app.url,
        eventCallback({
          type: 'app_home_opened',
          user,
          channel: `D${user}`,
          tab: 'home',
          ts: `${Date.now() / 1000}`,
        }),
        JSON_TYPE,
      );
    const home = (user: string) => JSON.stringify(h!.slack.homes.get(user) ?? '');

    // UBOB is in C1 only: the public report, not the private channel's.
    await open('UBOB');
    await eventually(() => home('UBOB').includes('open ocean'), 60_000, "UBOB's Home");
    expect(home('UBOB')).toContain('Nothing running.');
    expect(home('UBOB')).toMatch(/archives\/C1\/p1800001200000001\|How do tides work in the open ocean\?>/);
    expect(home('UBOB')).not.toContain('secret harbour');
    await open('UANN');
    await eventually(() => home('UANN').includes('secret harbour'), 60_000, "UANN's Home");

    // A search by a word of the question, from the search box.
    h.slack.homes.delete('UANN');
    await signedPost(app.url, homeAction('home_search', 'UANN', 'harbour', 'plain_text_input'), FORM);
    await eventually(() => home('UANN').includes('Reports matching'), 60_000, 'the search');
    expect(home('UANN')).toContain('secret harbour');
    expect(home('UANN')).not.toContain('open ocean');
  }, 120_000);

  it("lists the person's research waiting for its plan review, and cancels it from Home", async () => {
    // A new install's plan review: the plan waits 60 s for [Start now].
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { PLAN_REVIEW_SECONDS: '60' });
    const app = await h.start();
    const ts = '1800001200.000010';
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_mention',
        channel: 'C1',
        user: 'UANN',
        text: '<@UBOT> How do tides work?',
        ts,
      }),
      JSON_TYPE,
    );
    const [session] = await eventually(
      async () => {
        const rows = await storedSessions(h!);
        return rows[0]?.status === 'reviewing' ? rows : undefined;
      },
      20_000,
      'the plan under review',
    );
    const home = () => JSON.stringify(h!.slack.homes.get('UANN') ?? '');
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_home_opened',
        user: 'UANN',
        channel: 'DUANN',
        tab: 'home',
        ts: '1800001200.000011',
      }),
      JSON_TYPE,
    );
    await eventually(() => home().includes('How do tides work?'), 60_000, "UANN's Home");
    expect(home()).toMatch(/plan waiting for \[Start now\] · \d+s since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(home()).toContain(`"action_id":"research_cancel","value":"${session!.id}"`);

    h.slack.homes.delete('UANN');
    await signedPost(app.url, homeAction('research_cancel', 'UANN', session!.id, 'button'), FORM);
    await eventually(() => home().includes('Nothing running.'), 60_000, 'Home republished');
    expect((await storedSessions(h))[0]!.status).toBe('cancelled');
    await eventually(() => h!.slack.agents.changes('C1', ts).at(-1) === 'closed', 10_000, 'closed');
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);

    // A workspace admin's Home lists the channels' policies and the newest actions of the audit trail; a member's does not.
    expect(home()).not.toContain('Recent actions');
    h.slack.admins.add('UADM');
    expect(await runCli(['policy', 'set', 'C1', '{"dailyBudgetUsd":5}', '--team', 'T1'], h.env, io())).toBe(
      0,
    );
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_home_opened',
        user: 'UADM',
        channel: 'DUADM',
        tab: 'home',
        ts: '1800001200.000012',
      }),
      JSON_TYPE,
    );
    const admin = () => JSON.stringify(h!.slack.homes.get('UADM') ?? '');
    await eventually(() => admin().includes('Recent actions'), 60_000, "the admin's Home");
    // Newest first.
    expect(admin()).toMatch(/<@UANN> cancelled research in <#C1>\\n[^"]*<@UANN> started research in <#C1>/);
    expect(admin()).not.toContain('How do tides work?');
    expect(admin()).toContain('<#C1>: $5.00 a day');
    // [Edit policy] opens the channel's form for an admin, and nothing for anyone else.
    await signedPost(app.url, homeAction('channel_policy_edit', 'UANN', 'C1', 'button'), FORM);
    await signedPost(app.url, homeAction('channel_policy_edit', 'UADM', 'C1', 'button'), FORM);
    const form = await eventually(() =>
      h!.slack.views.find((v) => v.view.callback_id === 'channel_policy_form'),
    );
    expect(JSON.parse(String(form.view.private_metadata))).toEqual({ channelId: 'C1' });
    expect(h.slack.views.filter((v) => v.view.callback_id === 'channel_policy_form')).toHaveLength(1);
  }, 120_000);

  it('starts a research from New research, in a direct message, and shows it in Home when it settles', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    await signedPost(app.url, homeAction('home_new_research', 'UANN', 'new', 'button'), FORM);
    const form = await eventually(() => h!.slack.views.at(-1), 10_000, 'the form');
    expect(form.view).toMatchObject({ callback_id: 'home_research_form', title: { text: 'New research' } });
    // An empty question is answered in the form.
    const empty = await signedPost(
      app.url,
      viewSubmission('home_research_form', '', 'UANN', { block: 'question', action: 'question', value: ' ' }),
      FORM,
    );
    expect(JSON.parse(empty.body)).toEqual({
      response_action: 'errors',
      errors: { question: 'Ask a question.' },
    });
    await signedPost(
      app.url,
      viewSubmission('home_research_form', '', 'UANN', {
        block: 'question',
        action: 'question',
        value: 'How do tides work near estuaries?',
      }),
      FORM,
    );
    await eventually(
      async () =>
        (await storedSessions(h!)).some(
          (s) => s.status === 'done' && s.question === 'How do tides work near estuaries?',
        ),
      60_000,
      'the research in a DM',
    );
    await eventually(
      () => JSON.stringify(h!.slack.homes.get('UANN') ?? '').includes('near estuaries'),
      20_000,
      'Home refreshed',
    );
  }, 120_000);
});
