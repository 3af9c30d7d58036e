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
} from '../helpers/slack-requests.js';
import { researchReviewed } from '../helpers/slack-research.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PAGES = {
  'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
};

const count = async (h: SlackHarness, sql: string, params: unknown[] = []) =>
  (await queryRows(h, sql, params)).length;

/** The harness with a new install's defaults (plan review wait, canvases), and what people do in it. */
async function deleting() {
  h = await slackHarness(
    new RuleLlm({ rounds: 1, readPages: true }),
    { PLAN_REVIEW_SECONDS: '60' },
    {
      localPages: true,
      pageText: PAGES,
    },
  );
  const harness = h;
  harness.slack.admins.add('UADMIN');
  harness.slack.members.set('C1', ['UANN', 'UBOB', 'UADMIN']);
  const app = await harness.start();
  const command = async (text: string, user: string, id: string, channel = 'C1') => {
    await signedPost(
      app.url,
      slashCommand(text, user, harness.slack.responseUrl(id), { channel_id: channel }),
      FORM,
    );
    return String(
      (await eventually(() => harness.slack.responses.find((r) => r.url.endsWith(`/${id}`)), 15_000, id)).body
        .text,
    );
  };
  const research = (question: string, user: string, channel = 'C1') =>
    researchReviewed(harness, app.url, question, user, channel);
  const clickDelete = (summary: FakeMessage, user: string, channel: string, threadTs: string, id: string) => {
    const menu = summary.blocks
      .find((b) => b.type === 'actions')!
      .elements!.find((e) => e.action_id === 'research_delete')!;
    return signedPost(
      app.url,
      buttonClick(
        'research_delete',
        String((menu as unknown as { options: { value: string }[] }).options[0]!.value),
        user,
        { channel, ts: summary.ts, threadTs },
        harness.slack.responseUrl(id),
        'overflow',
      ),
      FORM,
    ).then(() => eventually(() => harness.slack.responses.find((r) => r.url.endsWith(`/${id}`)), 10_000, id));
  };
  return { h: harness, app, command, research, clickDelete };
}

describe('deleting a report in Slack', () => {
  it('removes its canvas, file and messages through 429s, and it is gone from find, Home, ask and reuse; others may not', async () => {
    const { h, app, command, research, clickDelete } = await deleting();
    const { root, summary, sessionId } = await research('How do tides work?', 'UANN');
    expect(h.slack.canvases.filter((c) => !c.deleted)).toHaveLength(1);

    expect(await command('find tides', 'UANN', 'find-before')).toContain('How do tides work?');
    const refused = await clickDelete(summary, 'UBOB', 'C1', root.ts, 'bob');
    expect(refused.body.text).toBe('Only <@UANN> (who asked) or a workspace admin can delete this report.');
    expect(await count(h, 'SELECT 1 FROM sessions WHERE deleted_at IS NOT NULL')).toBe(0);

    // Slack limits every removal for a while: they are retried until done.
    h.slack.fault({
      methods: ['chat.delete', 'canvases.delete', 'files.delete', 'chat.update'],
      error: 'ratelimited',
      forMs: 2500,
    });
    const done = await clickDelete(summary, 'UANN', 'C1', root.ts, 'ann');
    expect(done.body.text).toMatch(/^:wastebasket: Deleted\./);
    const thread = () =>
      h.slack.messages.filter((m) => m.channel === 'C1' && m.threadTs === root.ts && m.ts !== root.ts);
    await eventually(
      () => thread().every((m) => m.deleted),
      30_000,
      'every bot message in the thread deleted',
    );
    await eventually(() => h.slack.canvases.every((c) => c.deleted), 10_000, 'the canvas deleted');
    await eventually(() => h.slack.files.every((f) => f.deleted), 10_000, 'report.md deleted');
    const rootNow = await eventually(
      () => {
        const m = h.slack.messages.find((x) => x.ts === root.ts)!;
        return render(m).includes('deleted by <@UANN>') ? m : undefined;
      },
      10_000,
      'the root says who deleted it',
    );
    expect(render(rootNow)).not.toContain('How do tides work');
    expect(h.slack.calls.some((c) => c.error === 'fault:ratelimited')).toBe(true);
    // Its rows: content gone, the tombstone says who.
    expect(
      await count(h, "SELECT 1 FROM sessions WHERE id = $1 AND question = '' AND report IS NULL", [
        sessionId,
      ]),
    ).toBe(1);
    expect(await count(h, 'SELECT 1 FROM checkpoints WHERE session_id = $1', [sessionId])).toBe(0);
    expect(await count(h, 'SELECT 1 FROM session_sources WHERE session_id = $1', [sessionId])).toBe(0);

    // Gone from find, Home, ask and reuse.
    expect(await command('find tides', 'UANN', 'find')).not.toContain('How do tides work?');
    // The Home published while it ran is not the one to read: a fresh one, opened now.
    h.slack.homes.delete('UANN');
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_home_opened',
        user: 'UANN',
        channel: 'DUANN',
        tab: 'home',
        ts: `${Date.now() / 1000}`,
      }),
      JSON_TYPE,
    );
    await eventually(() => h.slack.homes.get('UANN'), 10_000, 'Home');
    expect(JSON.stringify(h.slack.homes.get('UANN'))).not.toContain('tides');
    const asked = io();
    expect(
      await runCli(['ask', '--about', sessionId.slice(0, 8), 'When are spring tides?'], h.env, asked),
    ).not.toBe(0);
    expect(asked.err.text).toContain("'s report was deleted (by UANN).");
    // The same question again is researched, not offered the deleted report.
    const before = h.model.requests.length;
    await signedPost(
      app.url,
      eventCallback({
        type: 'app_mention',
        channel: 'C1',
        user: 'UANN',
        text: '<@UBOT> How do tides work?',
        ts: '1800001300.000001',
      }),
      JSON_TYPE,
    );
    await eventually(
      () => h.slack.thread('C1', '1800001300.000001').some((m) => render(m).includes('*Research plan*')),
      20_000,
      'a new plan',
    );
    expect(h.slack.calls.filter((c) => String(c.args.text ?? '').includes('earlier report'))).toHaveLength(0);
    expect(h.model.requests.length).toBeGreaterThan(before);
  }, 150_000);

  it("deletes a leaver's reports with one admin command; a person who is not an admin cannot", async () => {
    const { h, command, research } = await deleting();
    const first = await research('How do tides work?', 'ULEAVER');
    const second = await research('Why is the sea salty?', 'ULEAVER');
    expect(await command('delete all <@ULEAVER>', 'UBOB', 'bob')).toBe(
      'Only a workspace admin can delete everything a person asked.',
    );
    expect(await command('delete all <@ULEAVER|leaver>', 'UADMIN', 'admin')).toBe(
      ':wastebasket: Deleted 2 reports <@ULEAVER> asked; what they showed is being removed from Slack.',
    );
    for (const { root } of [first, second])
      await eventually(
        () => render(h.slack.messages.find((m) => m.ts === root.ts)!).includes('deleted by <@UADMIN>'),
        20_000,
        'each root says who deleted it',
      );
    await eventually(() => h.slack.canvases.every((c) => c.deleted), 20_000, 'both canvases deleted');
    // One audit row per deletion.
    const csv = io();
    expect(await runCli(['audit', '--csv'], h.env, csv)).toBe(0);
    expect(csv.out.text.split('\n').filter((l) => l.includes('session.deleted'))).toHaveLength(2);
    expect(csv.out.text).not.toMatch(/tides|salty/i);
  }, 150_000);
});
