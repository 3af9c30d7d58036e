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
const userTs = () => `1800000400.${String(++tsCounter).padStart(6, '0')}`;

async function research(h: SlackHarness, question: string) {
  const app = await h.start();
  const ts = userTs();
  const event = { type: 'app_mention', channel: 'C1', user: 'UANN', text: `<@UBOT> ${question}`, ts };
  expect((await signedPost(app.url, eventCallback(event), JSON_TYPE)).status).toBe(200);
  await eventually(() => h.slack.reactionsOn('C1', ts).includes('white_check_mark'), 60_000, 'done');
  return h.slack.thread('C1', ts).map(render);
}

// Agents read their topic's page; the report adds two sentences: one cites Topic 2's page for what
// Topic 1's page says, one says what no page says.
const PAGES = {
  'topic 1': ['Spring tides happen at new and full moon, when the sun and the moon pull together.'],
  'topic 2': ['Neap tides come at the quarter moons, when the sun and the moon pull at right angles.'],
};
const EXTRA =
  'Spring tides happen when the moon is new or full [2]. Tides rise twice a day because of the sun alone [2].';

describe('the claim check, end to end with the defaults', () => {
  it('moves a wrong citation to the page that says it, removes one no page supports, and shows the quotes', async () => {
    const judge = (claim: string, n: number) =>
      claim.startsWith('Spring tides') && n === 2
        ? 'unsupported'
        : claim.startsWith('Tides')
          ? 'unsupported'
          : 'supported';
    h = await slackHarness(
      new RuleLlm({ rounds: 2, readPages: true, reportExtra: EXTRA, judge }),
      {},
      { localPages: true, pageText: PAGES },
    );
    await research(h, 'How do tides work?');

    const [canvas] = h.slack.canvases;
    expect(canvas!.markdown).toContain('Spring tides happen when the moon is new or full [[1](');
    expect(canvas!.markdown).toContain('because of the sun alone ⚠ _unverified_.');
    expect(canvas!.markdown).toContain(
      '   - “Spring tides happen at new and full moon, when the sun and the moon pull together.”',
    );
    expect(canvas!.markdown).toContain('4 of 4 citations checked · 1 moved · 1 removed');
    const report = h.slack.files.find((f) => f.title === 'Research report')!;
    expect(report.content).toContain('4 of 4 citations checked · 1 moved · 1 removed');
    expect(report.content).toContain('   - “Spring tides happen at new and full moon');
    // The summary in the thread stays short: no quotes.
    const summary = h.slack.messages.find((m) => render(m).startsWith(':memo:'))!;
    expect(render(summary)).not.toContain('“Spring');
    const [session] = await sessionsAtRest(h);
    expect(session).toMatchObject({ status: 'done' });
  }, 90_000);

  it('delivers the report labelled "citations not checked" when the model fails during the check', async () => {
    h = await slackHarness(
      new RuleLlm({ rounds: 2, readPages: true, reportExtra: EXTRA }),
      {},
      { localPages: true, pageText: PAGES, garbage: (purpose) => purpose === 'citation_check' },
    );
    const thread = await research(h, 'How do tides work?');
    const [canvas] = h.slack.canvases;
    expect(canvas!.markdown).toContain('Tides rise twice a day because of the sun alone [[2](');
    expect(canvas!.markdown).toContain('citations not checked (the check failed)');
    expect(thread.some((t) => /:x:|failed/i.test(t) && !t.includes('citations not checked'))).toBe(false);
    expect(await sessionsAtRest(h)).toMatchObject([{ status: 'done' }]);
  }, 120_000);
});

describe('table evidence, end to end', () => {
  it('shows the table row under its header as the quote when no sentence of the page holds the figure', async () => {
    const ranking = [
      'Insurers are ranked below by what they held when their financial year closed.',
      '</p><table><tr><th>Rank</th><th>Company</th><th>Country</th><th>Total assets (US$ billion)</th></tr>' +
        '<tr><td>1</td><td>Allianz</td><td>Germany</td><td>1,085.2</td></tr>' +
        '<tr><td>2</td><td>Prudential Financial</td><td>United States</td><td>735.6</td></tr></table><p>' +
        'Conglomerates whose insurance arms cannot be separated are left out of the ranking.',
    ];
    h = await slackHarness(
      new RuleLlm({
        rounds: 1,
        readPages: true,
        reportExtra: 'Allianz, the German insurer, had total assets of US$1,085.2 billion [1].',
      }),
      {},
      { localPages: true, pageText: { 'topic 1': ranking } },
    );
    await research(h, 'Which insurers hold the most assets?');
    const [canvas] = h.slack.canvases;
    expect(canvas!.markdown).toContain('US$1,085.2 billion [[1](');
    expect(canvas!.markdown).toContain(
      '   - “(table) Rank \\| Company \\| Country \\| Total assets (US$ billion) → 1 \\| Allianz \\| Germany \\| 1,085.2”',
    );
  }, 90_000);
});
