import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, sessionsAtRest, slackHarness } from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000300.${String(++tsCounter).padStart(6, '0')}`;

/** Asks with a mention in C1 and waits until the session is done; returns the thread's messages as text. */
async function research(h: SlackHarness, question: string): Promise<{ ts: string; thread: string[] }> {
  const app = await h.start();
  const ts = userTs();
  const event = { type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${question}`, ts };
  expect((await signedPost(app.url, eventCallback(event), JSON_TYPE)).status).toBe(200);
  await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 30_000, 'done');
  return { ts, thread: h.slack.thread('C1', ts).map(render) };
}

describe('the report as a canvas', () => {
  it.each([
    ['canvases.create', 'team_tier_cannot_create_canvases'],
    ['canvases.create', 'missing_scope'],
    ['canvases.access.set', 'restricted_action'],
  ])(
    'falls back to the report as messages, losing nothing, when %s answers %s',
    async (method, error) => {
      h = await slackHarness(new RuleLlm({ rounds: 2 }));
      h.slack.fault({ methods: [method], error, forMs: 600_000 });
      const { thread } = await research(h, 'How do tides work?');

      const report = thread.find((t) => t.startsWith('*Report*'));
      expect(report).toContain('Finding from Topic 1 <https://example.com/topic-1|[1]>.');
      expect(report).toContain('Finding from Topic 2 <https://example.com/topic-2|[2]>.');
      const sources = h.slack.messages.find((m) => render(m).startsWith('*Sources*'))!;
      expect(sources.blocks.some((b) => b.type === 'context_actions')).toBe(true);
      expect(h.slack.files.filter((f) => f.title)).toHaveLength(1);
      // No summary pointing at a canvas that is not there, and nothing alarming said.
      expect(thread.some((t) => t.startsWith(':memo:'))).toBe(false);
      expect(thread.some((t) => /:warning:|:x:|failed|could not/i.test(t))).toBe(false);
      expect(h.slack.canvases.filter((c) => !c.deleted)).toEqual([]);
      expect(await sessionsAtRest(h)).toMatchObject([{ status: 'done' }]);
    },
    60_000,
  );

  it('holds a long report whole, cites every source by link and mentions no one', async () => {
    h = await slackHarness(
      new RuleLlm({
        rounds: 2,
        reportChars: 45_000,
        reportExtra: 'Alert <!channel> <!here> and ping <@U123>, ![](@U456) and ![](#C789) @everyone',
      }),
    );
    const { thread } = await research(h, 'Summarise the evidence');
    const [canvas] = h.slack.canvases;
    const paragraphs = [...canvas!.markdown.matchAll(/Paragraph (\d+):/g)].map((m) => Number(m[1]));
    expect(paragraphs.length).toBeGreaterThan(100);
    expect(paragraphs).toEqual(Array.from({ length: paragraphs.length }, (_, i) => i + 1));
    // Mention images are links to no web page: the link policy keeps only their (empty) alt text.
    expect(canvas!.markdown).toContain('Alert &lt;!channel> &lt;!here> and ping &lt;@U123>,  and  @everyone');
    expect(canvas!.markdown).toMatch(/## Sources\n\n1\. \[Topic 1\]\(https:\/\/example\.com\/topic-1\)/);

    // The thread holds one short message for the report, within Slack's limits.
    const summaries = h.slack.messages.filter((m) => render(m).startsWith(':memo:'));
    expect(summaries).toHaveLength(1);
    expect(render(summaries[0]!).length).toBeLessThan(4000);
    expect(thread.some((t) => t.startsWith('*Report*'))).toBe(false);
    expect(h.slack.calls.filter((c) => c.error)).toEqual([]);
    for (const call of h.slack.calls) {
      expect(JSON.stringify(call.args)).not.toMatch(/<!channel>|<!here>|<@U123>/);
    }
  }, 60_000);
});
