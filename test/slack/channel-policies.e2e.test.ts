import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main.js';
import { type FakeMessage, render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { io } from '../helpers/io.js';
import { eventually, queryRows, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import {
  buttonClick,
  eventCallback,
  FORM,
  JSON_TYPE,
  signedPost,
  slashCommand,
  viewSubmissionState,
} from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

let tsCounter = 0;
const userTs = () => `1800001100.${String(++tsCounter).padStart(6, '0')}`;

/** What people do in the fake Slack against one `serve` process. */
function people(h: SlackHarness, url: string) {
  return {
    /** `/research …` by `user` in `channel`; its private answer. */
    async command(text: string, user: string, channel: string, id: string) {
      await signedPost(url, slashCommand(text, user, h.slack.responseUrl(id), { channel_id: channel }), FORM);
      const reply = await eventually(
        () => h.slack.responses.find((r) => r.url.endsWith(`/${id}`)),
        15_000,
        id,
      );
      return String(reply.body.text);
    },
    /** A mention (a new question, or one in a thread); its ts. */
    async mention(text: string, user: string, channel: string, threadTs?: string) {
      const ts = userTs();
      const event = { type: 'app_mention', channel, user, text: `<@UBOT> ${text}`, ts, thread_ts: threadTs };
      await signedPost(url, eventCallback(event), JSON_TYPE);
      return ts;
    },
    done: (channel: string, ts: string) =>
      eventually(
        () => h.slack.reactionsOn(channel, ts).includes('white_check_mark'),
        60_000,
        `report in ${channel}`,
      ),
    plan: (channel: string, ts: string) =>
      h.slack.thread(channel, ts).find((m: FakeMessage) => render(m).includes('*Research plan*')),
    /** What Slack showed `user` privately in `channel` (ephemeral messages), newest last. */
    privately: (channel: string, user: string) =>
      h.slack.calls
        .filter(
          (c) => c.method === 'chat.postEphemeral' && c.args.channel === channel && c.args.user === user,
        )
        .map((c) => String(c.args.text)),
  };
}

const cli = (h: SlackHarness, ...args: string[]) => runCli(args, h.env, io());

describe('channel policies in Slack', () => {
  it('a channel allowed only the knowledge base researches without one web request, and its plan names the policy', async () => {
    dir = mkdtempSync(join(tmpdir(), 'policy-kb-'));
    writeFileSync(
      join(dir, 'grants.md'),
      '# Heat pump grants\n\nThe heat pump grant pays up to 7,500 pounds per building in 2026.\n',
    );
    // A new install's plan review wait (60 s): the policies turn it off, so research starts at once.
    h = await slackHarness(new RuleLlm({ rounds: 1, internalQuery: 'heat pump grant', webFirst: true }), {
      PLAN_REVIEW_SECONDS: '60',
    });
    expect(await cli(h, 'kb', 'ingest', join(dir, 'grants.md'))).toBe(0);
    const kbOnly = '{"sources":{"web":false,"threadFiles":false,"mcpServers":[]},"planReview":"off"}';
    expect(await cli(h, 'policy', 'set', 'CKB', kbOnly, '--team', 'T1')).toBe(0);
    expect(await cli(h, 'policy', 'set', 'CWEB', '{"planReview":"off"}', '--team', 'T1')).toBe(0);
    const app = await h.start();
    const p = people(h, app.url);

    const ts = await p.mention('What do heat pump grants pay?', 'UANN', 'CKB');
    await p.done('CKB', ts);
    expect(h.search.hits).toHaveLength(0);
    const offered = h.model.requests.flatMap((r) => (r.tools ?? []).map((t) => t.function.name));
    expect(offered).toContain('internal_search');
    expect(offered).not.toContain('web_search');
    expect(offered).not.toContain('open_url');
    expect(render(p.plan('CKB', ts)!)).toContain(
      ":scales: This channel's research policy applies: sources: knowledge base · plan review off.",
    );
    expect(h.slack.canvases[0]!.markdown).toContain('7,500 pounds');

    // The same question where the web is allowed searches it: the policy, not the question, kept it out.
    const web = await p.mention('What do heat pump grants pay?', 'UANN', 'CWEB');
    await p.done('CWEB', web);
    expect(h.search.hits.length).toBeGreaterThan(0);
    expect(render(p.plan('CWEB', web)!)).toContain(
      "This channel's research policy applies: plan review off.",
    );
  }, 90_000);

  it('a policy naming two people, set by an admin in the form, refuses a third in one sentence for research, an ask, [Research more] and a schedule’s run; non-admins cannot set it', async () => {
    let now = Date.parse('2027-03-02T00:00:00Z');
    h = await slackHarness(
      new RuleLlm({ rounds: 1 }),
      {},
      { scheduler: { clock: { now: () => now }, everyMs: 100 } },
    );
    h.slack.admins.add('UADMIN');
    h.slack.members.set('C2', ['UANN', 'UBOB', 'UCAROL', 'UADMIN']);
    const app = await h.start();
    const p = people(h, app.url);

    // A member who is not an admin sees the channel's policy and who may change it; no form opens.
    expect(await p.command('settings', 'UCAROL', 'C2', 'carol-settings')).toBe(
      "This channel has no research policy: research here works as the app is set up. Only a workspace admin, or someone an admin named to manage this channel's research policy, can change it.",
    );
    expect(h.slack.views).toHaveLength(0);
    // An admin gets the form.
    await signedPost(
      app.url,
      slashCommand('settings', 'UADMIN', h.slack.responseUrl('admin-settings'), { channel_id: 'C2' }),
      FORM,
    );
    const form = await eventually(() =>
      h!.slack.views.find((v) => v.view.callback_id === 'channel_policy_form'),
    );
    expect(h.slack.responses.filter((r) => r.url.endsWith('/admin-settings'))).toEqual([]);
    const metadata = String(form.view.private_metadata);
    const submit = (user: string) =>
      signedPost(
        app.url,
        viewSubmissionState('channel_policy_form', metadata, user, {
          starters: { starters: { type: 'radio_buttons', selected_option: { value: 'named' } } },
          users: { users: { type: 'multi_users_select', selected_users: ['UANN', 'UBOB'] } },
          groups: { groups: { type: 'plain_text_input', value: '' } },
          sources: {
            sources: {
              type: 'checkboxes',
              selected_options: [{ value: 'web' }, { value: 'knowledgeBase' }, { value: 'threadFiles' }],
            },
          },
          run_budget: { run_budget: { type: 'number_input', value: null } },
          daily_budget: { daily_budget: { type: 'number_input', value: null } },
          review: { review: { type: 'static_select', selected_option: { value: 'default' } } },
          schedules: { schedules: { type: 'checkboxes', selected_options: [{ value: 'allowed' }] } },
          managers: { managers: { type: 'multi_users_select', selected_users: [] } },
        }),
        FORM,
      );
    // The same form submitted by someone who may not change the policy (a forged payload) saves nothing.
    const forged = await submit('UCAROL');
    expect(JSON.parse(forged.body)).toEqual({
      response_action: 'errors',
      errors: {
        starters:
          "Only a workspace admin, or someone an admin named to manage this channel's research policy, can change it.",
      },
    });
    expect(await queryRows(h!, 'SELECT 1 FROM channel_policies')).toHaveLength(0);
    expect((await submit('UADMIN')).status).toBe(200);
    await eventually(() => p.privately('C2', 'UADMIN').some((t) => t.startsWith('Saved.')), 5000, 'saved');

    const refusal =
      "This channel's research policy lets only the people and groups it names start research here; ask a workspace admin to change it.";
    expect(await p.command('How do tides work?', 'UCAROL', 'C2', 'carol-research')).toBe(refusal);
    const ts = await p.mention('How do tides work?', 'UANN', 'C2');
    await p.done('C2', ts);
    expect(render(p.plan('C2', ts)!)).toContain(
      ":scales: This channel's research policy applies: started by 2 named people and groups.",
    );

    // Asking the report is research here too.
    await p.mention('When are spring tides?', 'UCAROL', 'C2', ts);
    await eventually(
      () =>
        p
          .privately('C2', 'UCAROL')
          .includes(
            "This channel's research policy lets only the people and groups it names ask its reports questions; ask a workspace admin to change it.",
          ),
      10_000,
      'the ask refused',
    );

    // UANN schedules the question; then the admin leaves only UBOB.
    expect(await p.command('every monday at 9:00 How do tides work?', 'UANN', 'C2', 'every')).toMatch(
      /^:repeat: Scheduled/,
    );
    expect(
      await cli(h, 'policy', 'set', 'C2', '{"starters":{"kind":"named","users":["UBOB"]}}', '--team', 'T1'),
    ).toBe(0);
    const summary = h.slack.thread('C2', ts).find((m) => render(m).startsWith(':memo:'))!;
    const more = summary.blocks.find((b) => b.type === 'actions')!.elements![0]!;
    await signedPost(
      app.url,
      buttonClick(
        'research_more',
        String(more.value),
        'UANN',
        { channel: 'C2', ts: summary.ts, threadTs: ts },
        h.slack.responseUrl('more'),
      ),
      FORM,
    );
    const moreRefused = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/more')),
      10_000,
      'more',
    );
    expect(moreRefused.body.text).toBe(refusal);

    const [schedule] = await queryRows<{ next_run_at: Date }>(h!, 'SELECT next_run_at FROM schedules');
    now = schedule!.next_run_at.getTime() + 5000;
    const said = await eventually(
      () =>
        h!.slack.messages.find(
          (m) => m.channel === 'C2' && !m.threadTs && render(m).includes('did not start'),
        ),
      20_000,
      "the schedule's refused run",
    );
    expect(render(said)).toContain(refusal);
    expect(render(said)).not.toMatch(/<@U|<!/);
    const sessions = await queryRows<{ requester: string }>(h!, 'SELECT requester FROM sessions');
    expect(sessions.map((s) => s.requester)).toEqual(['UANN']);

    // One audit row per action, as CSV, with no question or page text.
    const csv = io();
    expect(await runCli(['audit', '--csv'], h.env, csv)).toBe(0);
    const rows = csv.out.text
      .trim()
      .split('\n')
      .slice(1)
      .map((r) => r.split(',').slice(1, 3).join(' '));
    expect(rows).toEqual([
      'UADMIN policy.changed',
      'UANN session.started',
      'UANN schedule.created',
      expect.stringMatching(/^cli:\S+ policy\.changed$/),
    ]);
    expect(csv.out.text).not.toMatch(/tides|spring/i);
  }, 120_000);

  it("holds a channel's daily budget under 20 requests at once", async () => {
    // A new install's plan review wait: admitted research stays open (reserved) for the whole test.
    h = await slackHarness(new RuleLlm(), {
      PLAN_REVIEW_SECONDS: '60',
      MODEL_PRICES: '{"gpt-4.1":{"input":5,"output":5}}',
    });
    expect(await cli(h, 'policy', 'set', 'C3', '{"dailyBudgetUsd":5}', '--team', 'T1')).toBe(0);
    const app = await h.start();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signedPost(
          app.url,
          slashCommand(`Question number ${i} about tides?`, `UP${i}`, h!.slack.responseUrl(`b${i}`), {
            channel_id: 'C3',
          }),
          FORM,
        ),
      ),
    );
    const sessions = () => queryRows<{ reserved_usd: number }>(h!, 'SELECT reserved_usd FROM sessions');
    const replies = () =>
      h!.slack.responses.filter((r) => /\/b\d+$/.test(r.url)).map((r) => String(r.body.text));
    await eventually(
      async () => (await sessions()).length + replies().length === 20,
      20_000,
      'every request decided',
    );
    const rows = await sessions();
    const reserved = rows.reduce((sum, r) => sum + Number(r.reserved_usd), 0);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(20);
    expect(reserved).toBeLessThanOrEqual(5 + 1e-9);
    const refused = replies().filter((r) => r.startsWith('Research in this channel has used'));
    expect(refused).toHaveLength(20 - rows.length);
    expect(refused[0]).toMatch(
      /of the \$5\.00 a day this channel's research policy allows.*ask a workspace admin to raise it\.$/,
    );
  }, 90_000);
});
