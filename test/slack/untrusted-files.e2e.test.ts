import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { makeDocx } from '../helpers/make-docx.js';
import { makePdf } from '../helpers/make-pdf.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, FORM, JSON_TYPE, signedPost, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** What reading costs the files below by default: a listing page, a long PDF, a Word file that inflates. */
const listing = (rows: number) =>
  `<html><head><title>Price list</title></head><body><main>${Array.from(
    { length: rows },
    (_, i) =>
      `<div class="row"><p>Item ${i}: <a href="/x/${i}">model ${i}</a> costs ${i} pounds.</p><table><tr><td>${i}</td></tr></table></div>`,
  ).join('\n')}</main></body></html>`;
const manual = makePdf(
  Array.from({ length: 1500 }, (_, p) =>
    Array.from(
      { length: 45 },
      (_, l) => `Page ${p} line ${l}: the heat pump manual says to bleed the radiators.`,
    ),
  ),
  { title: 'Manual', author: 'Maker', created: '20260101' },
);
const bomb = makeDocx(
  Array.from({ length: 300_000 }, (_, i) => `Paragraph ${i}: all work and no play makes Jack a dull boy.`),
  { deflate: true },
);

describe('untrusted files shared in a thread, with the limits a new install has', () => {
  it('are read off the event loop: Slack and /healthz are answered within 3 s throughout, memory stays bounded, and what was refused or cut is named under the plan', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1, fileQueries: ['radiators'] }));
    const root = h.slack.say('C1', 'UANN', 'Choosing a heat pump: the files are below.');
    h.slack.shareFile('C1', 'UANN', 'prices.html', Buffer.from(listing(20_000)), { threadTs: root });
    h.slack.shareFile('C1', 'UANN', 'manual.pdf', manual, { threadTs: root });
    h.slack.shareFile('C1', 'UANN', 'bomb.docx', bomb, { threadTs: root });
    h.slack.shareFile(
      'C1',
      'UANN',
      'notes.md',
      Buffer.from('# Notes\n\nThe plant room is 12 square metres.'),
      {
        threadTs: root,
      },
    );
    const app = await h.start();
    const health = app.url.replace('/slack/events', '/healthz');
    const baseline = process.memoryUsage().rss;
    let peakRss = baseline;
    const waits: { healthz: number[]; command: number[] } = { healthz: [], command: [] };
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const started = performance.now();
        expect((await fetch(health)).status).toBe(200);
        waits.healthz.push(performance.now() - started);
        const command = await signedPost(
          app.url,
          slashCommand('help', 'UBOB', h!.slack.responseUrl('help')),
          FORM,
        );
        expect(command.status).toBe(200);
        waits.command.push(command.ms);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    const ts = `${Math.floor(Date.now() / 1000) + 5}.000300`;
    const mention = {
      type: 'app_mention',
      channel: 'C1',
      user: 'UANN',
      text: '<@UBOT> which fits?',
      ts,
      thread_ts: root,
    };
    await signedPost(app.url, eventCallback(mention), JSON_TYPE);
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'done', 120_000, 'the report');
    probing = false;
    await probes;

    // Throughout the reading, Slack's requests and /healthz were answered within Slack's 3 s.
    expect(waits.healthz.length).toBeGreaterThan(3);
    expect(Math.max(...waits.healthz)).toBeLessThan(3000);
    expect(Math.max(...waits.command)).toBeLessThan(3000);
    // Two reading threads of at most 384 MB each, whatever the files inflate to.
    expect(peakRss - baseline).toBeLessThan(1200 * 1_048_576);

    const plan = render(
      h.slack.thread('C1', root).find((m) => render(m).startsWith(':clipboard: *Research plan*'))!,
    );
    // The listing is read (cut) or, on a machine too busy to parse it in 30 s, named as too slow: never a stall.
    expect(plan).toMatch(
      /prices\.html \((only the first 1,000,000 of its [\d,]+ characters were kept|reading it took longer than 30 s)\)/,
    );
    expect(plan).toMatch(
      /manual\.pdf \(only its first 1,000,000 characters were kept \(\d+ of its 1,500 pages\)\)/,
    );
    expect(plan).toContain('notes.md');
    expect(plan).toMatch(/bomb\.docx \(it unpacks to 32\.8 MB of text, more than the 8 MB allowed\)/);
    // The agents read the manual's text.
    expect(JSON.stringify(h.model.requests)).toContain('bleed the radiators');
  }, 180_000);
});
