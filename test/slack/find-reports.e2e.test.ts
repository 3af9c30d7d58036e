import { afterEach, describe, expect, it } from 'vitest';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('/research find', () => {
  it("finds a public channel's report for a member, never a private channel's for a non-member, and a DM report only for its requester", async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }));
    const app = await h.start();
    h.slack.members.set('C1', ['UANN', 'UBOB', 'UCAT']);
    h.slack.members.set('G1', ['UANN']);
    const ask = (channel: string, user: string, text: string, ts: string, dm = false) =>
      signedPost(
        app.url,
        eventCallback(
          dm
            ? { type: 'message', channel, channel_type: 'im', user, text, ts }
            : { type: 'app_mention', channel, user, text: `<@UBOT> ${text}`, ts },
        ),
        JSON_TYPE,
      );
    await ask('C1', 'UANN', 'How do tides work in the open ocean?', '1800001000.000001');
    await ask('G1', 'UANN', 'How do tides affect the secret harbour project?', '1800001000.000002');
    await ask('DCAT', 'UCAT', 'Why do tides differ between the two coasts?', '1800001000.000003', true);
    await eventually(
      async () => (await storedSessions(h!)).filter((s) => s.status === 'done').length === 3,
      90_000,
      'three reports',
    );

    const find = async (user: string, words: string) => {
      await signedPost(
        app.url,
        slashCommand(`find ${words}`, user, h!.slack.responseUrl(`find-${user}-${words}`)),
        FORM,
      );
      const reply = await eventually(
        () =>
          h!.slack.responses.find(
            (r) =>
              r.url.endsWith(`/find-${user}-${encodeURIComponent(words)}`) ||
              r.url.endsWith(`/find-${user}-${words}`),
          ),
        15_000,
        `find for ${user}`,
      );
      return String(reply.body.text);
    };
    // UBOB is in C1 only: the public report, not the private channel's, not UCAT's DM.
    const bob = await find('UBOB', 'tides');
    expect(bob).toContain('How do tides work in the open ocean?');
    expect(bob).toContain('<https://test.slack.com/archives/C1/p1800001000000001|');
    expect(bob).toMatch(/asked by <@UANN> · \d+ sources? · <[^|]+\|canvas>/);
    expect(bob).not.toContain('secret harbour');
    expect(bob).not.toContain('two coasts');
    // UANN is in both channels; UCAT's DM report stays UCAT's.
    const ann = await find('UANN', 'tides');
    expect(ann).toContain('open ocean');
    expect(ann).toContain('secret harbour');
    expect(ann).not.toContain('two coasts');
    expect(await find('UCAT', 'coasts')).toContain('Why do tides differ between the two coasts?');
    expect(await find('UBOB', 'volcanoes')).toBe(
      'No report you can see matches "volcanoes". Ask a new question with `/research <question>`.',
    );
  }, 150_000);
});
