import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { buttonClick, eventCallback, FORM, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PAGES = { 'topic 1': ['Tides work because the moon pulls on the oceans, so they rise twice a day.'] };

describe('reuse before paying again', () => {
  it('offers the earlier report to a repeated question: [Read it] costs nothing, [Ask it] answers from it, [Research anyway] researches', async () => {
    h = await slackHarness(
      new RuleLlm({ rounds: 1, readPages: true }),
      {},
      { localPages: true, pageText: PAGES },
    );
    h.slack.members.set('C1', ['UANN', 'UBOB']);
    const app = await h.start();
    const mention = (user: string, text: string, ts: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel: 'C1', user, text: `<@UBOT> ${text}`, ts }),
        JSON_TYPE,
      );
    const offerIn = (ts: string) =>
      eventually(
        () => h!.slack.thread('C1', ts).find((m) => render(m).includes('Researched on')),
        15_000,
        `the offer in ${ts}`,
      );
    const click = (
      action: string,
      offer: { ts: string; blocks: { type: string; elements?: { action_id?: string; value?: unknown }[] }[] },
      threadTs: string,
      user = 'UBOB',
    ) => {
      const value = offer.blocks
        .find((b) => b.type === 'actions')!
        .elements!.find((e) => e.action_id === action)!.value;
      // A random token, not the row's sequence number: one offer says nothing of any other.
      expect(String(value)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      return signedPost(
        app.url,
        buttonClick(
          action,
          String(value),
          user,
          { channel: 'C1', ts: offer.ts, threadTs },
          h!.slack.responseUrl(`${action}-${threadTs}-${user}`),
        ),
        FORM,
      );
    };
    const response = (action: string, threadTs: string, user = 'UBOB') =>
      eventually(
        () => h!.slack.responses.find((r) => r.url.endsWith(`/${action}-${threadTs}-${user}`)),
        15_000,
        `${action} response`,
      );

    await mention('UANN', 'How do tides work?', '1800001100.000001');
    await eventually(
      async () => (await storedSessions(h!)).some((s) => s.status === 'done'),
      60_000,
      'the first report',
    );
    const modelCalls = h.model.requests.length;

    // The same research asked again in other words: the earlier report is offered, nothing is researched yet.
    await mention('UBOB', 'How do ocean tides work?', '1800001100.000002');
    const offer = await offerIn('1800001100.000002');
    expect(render(offer)).toMatch(/Researched on \d+ \w+ by UANN: <[^|]+\|How do tides work\?> · 1 source/);
    expect(JSON.stringify(offer)).not.toContain('<@UANN>');
    // Only the person who asked chooses.
    await click('reuse_read', offer, '1800001100.000002', 'UANN');
    expect((await response('reuse_read', '1800001100.000002', 'UANN')).body.text).toBe(
      'Only <@UBOB>, who asked, can choose.',
    );
    await click('reuse_read', offer, '1800001100.000002');
    const read = await response('reuse_read', '1800001100.000002');
    expect(read.body.replace_original).toBe(true);
    expect(String(read.body.text)).toContain('Nothing new was researched');
    expect(await storedSessions(h)).toHaveLength(1);
    // One short call confirmed the question is the same before it was offered; reading it cost nothing more.
    const since = h.model.requests.slice(modelCalls);
    expect(since).toHaveLength(1);
    expect(JSON.stringify(since[0])).toContain('"name":"same_question"');

    // [Ask it]: answered in this thread from the earlier report's sources.
    await mention('UBOB', 'How do tides work in the ocean?', '1800001100.000003');
    const second = await offerIn('1800001100.000003');
    await click('reuse_ask', second, '1800001100.000003');
    await response('reuse_ask', '1800001100.000003');
    await eventually(
      () =>
        h!.slack
          .thread('C1', '1800001100.000003')
          .find((m) => render(m).includes('because the moon pulls on the oceans')),
      15_000,
      'the answer in the new thread',
    );
    expect(await storedSessions(h)).toHaveLength(1);

    // [Research anyway]: a research starts in the thread.
    await mention('UBOB', 'How do the tides work?', '1800001100.000004');
    const third = await offerIn('1800001100.000004');
    await click('reuse_research', third, '1800001100.000004');
    expect(String((await response('reuse_research', '1800001100.000004')).body.text)).toContain(
      'Researching anyway',
    );
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 2,
      60_000,
      'the new research',
    );
  }, 150_000);

  it('never offers a private channel’s or a DM’s report to a wider conversation: the asker alone sees it, nothing is answered there', async () => {
    h = await slackHarness(
      new RuleLlm({ rounds: 1, readPages: true }),
      {},
      { localPages: true, pageText: PAGES },
    );
    h.slack.members.set('G1', ['UANN', 'UBOB']);
    h.slack.members.set('DANN', ['UANN']);
    h.slack.members.set('C2', ['UANN', 'UBOB', 'UCAT']);
    const app = await h.start();
    const mention = (channel: string, user: string, text: string, ts: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel, user, text: `<@UBOT> ${text}`, ts }),
        JSON_TYPE,
      );
    // A report in the private channel G1, and one in Ann's DM with the bot.
    await mention(
      'G1',
      'UANN',
      'How do tides work and what about the Leeds layoff plan?',
      '1800001200.000001',
    );
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 1,
      60_000,
      'G1 report',
    );
    await signedPost(
      app.url,
      eventCallback({
        type: 'message',
        channel_type: 'im',
        channel: 'DANN',
        user: 'UANN',
        text: 'How do volcanoes form?',
        ts: '1800001200.000002',
      }),
      JSON_TYPE,
    );
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 2,
      60_000,
      'DM report',
    );

    // Bob (in G1) and Ann (the DM's owner) ask the same questions in the public channel C2.
    for (const [user, question, ts] of [
      ['UBOB', 'How do tides work and what about the Leeds layoff plan?', '1800001200.000003'],
      ['UANN', 'How do volcanoes form?', '1800001200.000004'],
    ] as const) {
      await mention('C2', user, question, ts);
      const offer = await eventually(
        () =>
          h!.slack.calls.find(
            (c) => c.method === 'chat.postEphemeral' && c.args.user === user && c.args.thread_ts === ts,
          ),
        15_000,
        `the private offer to ${user}`,
      );
      const blocks = JSON.stringify(offer.args.blocks);
      expect(blocks).toContain('Only you can see this');
      expect(blocks).not.toContain('reuse_ask');
      // Nothing of it in the thread everyone in C2 sees.
      expect(h.slack.thread('C2', ts).map(render).join('\n')).not.toMatch(/Leeds|volcanoes|Researched on/);
      // A forged [Ask it] with the offer's token is refused privately; nothing is answered in C2.
      const token = String(
        (JSON.parse(String(offer.args.blocks)) as { elements?: { value?: string }[] }[]).find(
          (b) => b.elements,
        )!.elements![0]!.value,
      );
      await signedPost(
        app.url,
        buttonClick(
          'reuse_ask',
          token,
          user,
          { channel: 'C2', ts, threadTs: ts },
          h.slack.responseUrl(`ask-${ts}`),
        ),
        FORM,
      );
      const refused = await eventually(
        () => h!.slack.responses.find((r) => r.url.endsWith(`/ask-${ts}`)),
        15_000,
        'the refusal',
      );
      expect(String(refused.body.text)).toContain('not everyone here is in, so it is not answered here');
      expect(h.slack.thread('C2', ts).map(render).join('\n')).not.toMatch(/Leeds|volcanoes|moon/);
    }
  }, 150_000);

  it('offers nothing when the question differs by one term the words cannot tell (solar or wind): one short call says so, and it is paid for', async () => {
    const source = (q: string) => /solar|wind/.exec(q)?.[0];
    h = await slackHarness(new RuleLlm({ rounds: 1, sameQuestion: (a, b) => source(a) === source(b) }));
    h.slack.members.set('C1', ['UANN']);
    const app = await h.start();
    const mention = (text: string, ts: string) =>
      signedPost(
        app.url,
        eventCallback({ type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${text}`, ts }),
        JSON_TYPE,
      );
    await mention('Which countries have the highest solar power capacity?', '1800001300.000001');
    await eventually(
      async () => (await storedSessions(h!))[0]?.status === 'done',
      60_000,
      'the first report',
    );
    await mention('Which countries have the highest wind power capacity?', '1800001300.000002');
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 2,
      60_000,
      'the wind research, not an offer',
    );
    expect(h.slack.thread('C1', '1800001300.000002').map(render).join('\n')).not.toContain('Researched on');
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('SELECT requester, purpose, cost_usd FROM paid_calls');
    await db.end();
    expect(rows).toEqual([{ requester: 'UANN', purpose: 'same_question', cost_usd: expect.any(Number) }]);
    expect(rows[0].cost_usd).toBeGreaterThan(0);
  }, 150_000);
});
