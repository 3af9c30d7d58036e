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

const sourceUrls = (markdown: string) =>
  [...markdown.matchAll(/^\d+\. \[[^\]]*\]\((\S+)\)/gm)].map((m) => m[1]);

describe('[Research more]', () => {
  it('continues a finished research into a second version: more cycles, a superset of sources, nothing searched or read twice', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 2, readPages: true }), {}, { localPages: true });
    const app = await h.start();
    const ts = '1800000800.000001';
    const ask = { type: 'app_mention', channel: 'C1', user: 'UANN', text: '<@UBOT> How do tides work?', ts };
    // report.md, which goes after the summary, is slow to upload: the first clicks come while it is delivered.
    const slowFile = h.slack.answerLate('files.completeUploadExternal', 10_000);
    await signedPost(app.url, eventCallback(ask), JSON_TYPE);
    const summary = await eventually(
      () => h!.slack.thread('C1', ts).find((m) => render(m).startsWith(':memo:')),
      30_000,
      'the first summary',
    );
    const more = summary.blocks.find((b) => b.type === 'actions')!.elements![0]!;
    expect(more.action_id).toBe('research_more');
    const click = (user: string) =>
      signedPost(
        app.url,
        buttonClick(
          'research_more',
          String(more.value),
          user,
          { channel: 'C1', ts: summary.ts, threadTs: ts },
          h!.slack.responseUrl(`more-${user}`),
        ),
        FORM,
      );
    await click('UBOB');
    const refused = await eventually(
      () => h!.slack.responses.find((r) => r.url.endsWith('/more-UBOB')),
      5000,
      'refusal',
    );
    expect(refused.body.text).toBe(
      'Only <@UANN> (who asked) or a workspace admin can continue this research.',
    );

    await slowFile;
    expect((await storedSessions(h)).map((s) => s.status)).toEqual(['delivering']);
    // The button waits for the report it continues to be delivered, then goes on (once for two clicks).
    await Promise.all([click('UANN'), click('UANN')]);
    const summaries = () =>
      h!.slack.thread('C1', ts).filter((m: FakeMessage) => render(m).startsWith(':memo:'));
    let statuses = '';
    await eventually(
      async () => {
        statuses = (await storedSessions(h!)).map((s) => s.status).join();
        return statuses === 'done,done';
      },
      30_000,
      () => `v2 (sessions: ${statuses})`,
    );
    await eventually(() => summaries().length === 2, 10_000, 'the second summary');
    expect(render(summaries()[1]!)).toMatch(/session [0-9a-f-]{36} · version 2_/);

    const [v1, v2] = h.slack.canvases;
    expect(v2!.title).toBe('How do tides work? (version 2)');
    expect(sourceUrls(v1!.markdown)).toHaveLength(2);
    expect(sourceUrls(v2!.markdown)).toHaveLength(4);
    // The first version's sources keep their numbers.
    expect(sourceUrls(v2!.markdown).slice(0, 2)).toEqual(sourceUrls(v1!.markdown));
    // Each version was announced once its report was in the thread, in the thread's channel.
    await eventually(() => h!.published.length === 2, 10_000, 'both reports announced');
    const [first, second] = (await storedSessions(h)).sort((a, b) => a.turn - b.turn);
    expect(h.published.map((p) => [p.sessionId, p.version, p.sources.length])).toEqual([
      [first!.id, 1, 2],
      [second!.id, 2, 4],
    ]);
    expect(new Set(h.published.map((p) => `${p.teamId} ${p.channelId} ${p.threadTs}`)).size).toBe(1);
    expect(h.published[0]!.channelId).toBeTruthy();
    // Two more research cycles ran, and no search or page read was repeated.
    const agents = h.model.requests.filter((r) => r.tools?.some((t) => t.function.name === 'research_agent'));
    expect(agents.length).toBeGreaterThanOrEqual(6);
    const searches = h.search.hits.filter((u) => u.startsWith('/search'));
    const pages = h.search.hits.filter((u) => !u.startsWith('/search'));
    expect(searches).toHaveLength(4);
    expect(new Set(searches).size).toBe(4);
    expect(pages).toHaveLength(4);
    expect(new Set(pages).size).toBe(4);
  }, 90_000);
});
