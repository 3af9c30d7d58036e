import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import {
  buttonClick,
  eventCallback,
  FORM,
  JSON_TYPE,
  signedPost,
  slashCommand,
} from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let tsCounter = 0;
const userTs = () => `1800000000.${String(++tsCounter).padStart(6, '0')}`;

describe('the Slack app, end to end', () => {
  it('runs /research with a clarification answered in the thread by the requester', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 2, questions: '1. Which region?\n2. Which years?' }));
    const app = await h.start();
    const ack = await signedPost(
      app.url,
      slashCommand('How do heat pumps compare with gas boilers?', 'UANN', h.slack.responseUrl('cmd')),
      FORM,
    );
    expect(ack.status).toBe(200);

    const root = await eventually(
      () => h!.slack.messages.find((m) => m.channel === 'C1' && !m.threadTs),
      5000,
      'root',
    );
    expect(render(root)).toContain('*Deep research* requested by <@UANN>');
    expect(render(root)).toContain('> How do heat pumps compare with gas boilers?');
    const clarify = await eventually(
      () => h!.slack.thread('C1', root.ts).find((m) => render(m).includes('Which region?')),
      5000,
      'questions',
    );
    expect(clarify.blocks.some((b) => b.type === 'actions')).toBe(true);

    const reply = (user: string, text: string) =>
      signedPost(
        app.url,
        eventCallback({
          type: 'message',
          channel: 'C1',
          channel_type: 'channel',
          user,
          text,
          ts: userTs(),
          thread_ts: root.ts,
        }),
        JSON_TYPE,
      );
    await reply('UBOB', 'Asia, and only the last year');
    await reply('UANN', 'Europe, 2020 to 2025');

    const file = await eventually(() => h!.slack.files.find((f) => f.title), 10_000, 'report.md');
    const thread = h.slack.thread('C1', root.ts).map(render);
    if (process.env.SHOW_THREAD) console.log(thread.join('\n-----\n'));
    expect(render(clarify)).toContain('Answered by <@UANN>');
    expect(clarify.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(thread.some((t) => t.startsWith(':clipboard: *Research plan*\n1. Topic 1'))).toBe(true);
    const report = thread.find((t) => t.startsWith('*Report*'))!;
    expect(report).toContain('Finding from Topic 1 <https://example.com/topic-1|[1]>.');
    const sources = thread.find((t) => t.startsWith('*Sources*'))!;
    expect(sources).toContain('<https://example.com/topic-1|[1] Topic 1>, example.com');
    expect(sources).toMatch(/session [0-9a-f-]{36}/);
    expect(file.content).toContain('# How do heat pumps compare with gas boilers?');
    expect(file.threadTs).toBe(root.ts);
    const progress = h.slack
      .thread('C1', root.ts)
      .find((m) => m.history.some((v) => v.includes('*Researching*')))!;
    expect(render(progress)).toMatch(/^:white_check_mark: \*Research complete\* · 2 agents · 2 sources/);
    expect(progress.blocks.some((b) => b.type === 'actions')).toBe(false);
    await eventually(() => render(root).includes('*Report ready*'), 5000, 'root status');
    expect(render(root)).toContain('|read the report>');

    // Only the requester's reply reached the model.
    const asked = JSON.stringify(h.model.requests);
    expect(asked).toContain('Europe, 2020 to 2025');
    expect(asked).not.toContain('Asia, and only the last year');
    // Nothing the bot sent asks Slack to turn names into mentions.
    expect(h.slack.calls.every((c) => !('link_names' in c.args))).toBe(true);
    expect(h.slack.calls.filter((c) => c.error && c.error !== 'message_not_found')).toEqual([]);
  });
});
