import { afterEach, describe, expect, it } from 'vitest';
import { render } from '../fakes/fake-slack-server.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { makeDocx } from '../helpers/make-docx.js';
import { makePdf } from '../helpers/make-pdf.js';
import { eventually, type SlackHarness, slackHarness, storedSessions } from '../helpers/slack-harness.js';
import { eventCallback, JSON_TYPE, signedPost } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('files shared in the thread', () => {
  it('are read into the session, searched by agents, cited by name with their Slack link, and the rest named', async () => {
    // Each agent searches the shared files first (agent 1 the grant rules, agent 2 the noise notes).
    h = await slackHarness(new RuleLlm({ rounds: 2, fileQueries: ['grant building', 'noise decibels'] }), {
      FILE_MAX_MB: '1',
    });
    const root = h.slack.say('C1', 'UANN', 'Picking a heat pump for the Leeds office: the files are below.');
    const pdf = makePdf([['Grant rules: up to 7,500 pounds per building for heat pumps.']], {
      title: 'Grant rules',
      author: 'Ops',
      created: 'D:20260101000000Z',
    });
    const grants = h.slack.shareFile('C1', 'UBOB', 'grants.pdf', pdf, { threadTs: root });
    const notes = makeDocx(['Noise notes.', 'The meeting rooms allow at most 40 decibels of noise.']);
    const plan = h.slack.shareFile('C1', 'UANN', 'noise-notes.docx', notes, { threadTs: root });
    h.slack.shareFile('C1', 'UBOB', 'floor-plan.pdf', Buffer.from('PK'), {
      threadTs: root,
      size: 5 * 1_048_576,
    });
    h.slack.shareFile('C1', 'UBOB', 'budget.xlsx', Buffer.from('PK'), { threadTs: root });
    const app = await h.start();
    const ts = `${Math.floor(Date.now() / 1000) + 5}.000300`;
    const mention = {
      type: 'app_mention',
      channel: 'C1',
      user: 'UANN',
      text: '<@UBOT> which option fits?',
      ts,
      thread_ts: root,
    };
    await signedPost(app.url, eventCallback(mention), JSON_TYPE);
    await eventually(async () => (await storedSessions(h!))[0]?.status === 'done', 30_000, 'the report');

    const planMessage = h.slack
      .thread('C1', root)
      .find((m) => render(m).startsWith(':clipboard: *Research plan*'))!;
    expect(render(planMessage)).toContain(
      ':paperclip: Reading the 2 files shared here: grants.pdf, noise-notes.docx.',
    );
    expect(render(planMessage)).toContain(
      ':warning: Not read: floor-plan.pdf (larger than 1 MB); budget.xlsx (not a PDF, Word (.docx), Markdown, text, HTML or CSV file).',
    );
    // Only the two read files were downloaded, once each.
    expect(h.slack.calls.filter((c) => c.method === 'files-pri').map((c) => String(c.args.path))).toEqual([
      `/files-pri/${grants.id}/grants.pdf`,
      `/files-pri/${plan.id}/noise-notes.docx`,
    ]);
    // The agents found them through thread_files; the report cites them by name, with their Slack link.
    const [session] = await storedSessions(h);
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('SELECT report FROM sessions WHERE id = $1', [session!.id]);
    await db.end();
    const report = rows[0].report as {
      markdown: string;
      sources: { n: number; title: string; url?: string }[];
    };
    expect(report.sources).toEqual([
      expect.objectContaining({
        title: 'grants.pdf',
        url: `https://test.slack.com/files/UBOB/${grants.id}/grants.pdf`,
      }),
      expect.objectContaining({
        title: 'noise-notes.docx',
        url: `https://test.slack.com/files/UANN/${plan.id}/noise-notes.docx`,
      }),
    ]);
    expect(report.markdown).toContain('Finding from grants.pdf [1].');
    expect(report.markdown).toContain('Finding from noise-notes.docx [2].');
    const canvas = h.slack.canvases.at(-1)!;
    expect(canvas.markdown).toContain(
      `[grants.pdf](https://test.slack.com/files/UBOB/${grants.id}/grants.pdf)`,
    );
    // The modelled agents saw the files' text.
    const sent = JSON.stringify(h.model.requests);
    expect(sent).toContain('up to 7,500 pounds per building');
    expect(sent).toContain('at most 40 decibels');
  }, 60_000);
});
