import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeStore } from '../../src/search/knowledge/knowledge-store.js';
import { RuleLlm } from '../fakes/rule-llm.js';
import { makePdf } from '../helpers/make-pdf.js';
import { eventually, type SlackHarness, slackHarness } from '../helpers/slack-harness.js';
import { FORM, signedPost, slashCommand } from '../helpers/slack-requests.js';

let h: SlackHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** `/research <text>` from `user` in `channel`; the private reply. */
async function command(
  h: SlackHarness,
  url: string,
  text: string,
  user: string,
  channel: string,
  id: string,
) {
  await signedPost(url, slashCommand(text, user, h.slack.responseUrl(id), { channel_id: channel }), FORM);
  const reply = await eventually(() => h.slack.responses.find((r) => r.url.endsWith(`/${id}`)), 20_000, id);
  return String(reply.body.text);
}

describe('the knowledge base from Slack', () => {
  it('adds the files an admin shared in a direct message, refuses others, and lists what it holds', async () => {
    h = await slackHarness(new RuleLlm({ rounds: 1 }), { KB_ADMINS: 'UADMIN', FILE_MAX_MB: '1' });
    const app = await h.start();
    h.slack.shareFile(
      'DADMIN',
      'UADMIN',
      'heat-pumps.md',
      Buffer.from('# Heat pumps in Leeds\n\nThe office unit costs £11,800 installed.\n'),
    );
    const pdf = makePdf([['Grant rules: up to 7,500 pounds per building.']], {
      title: 'Grant rules',
      author: 'Ops',
      created: 'D:20260101000000Z',
    });
    h.slack.shareFile('DADMIN', 'UADMIN', 'grants.pdf', pdf);
    h.slack.shareFile('DADMIN', 'UADMIN', 'budget.xlsx', Buffer.from('PK\u0003\u0004'));
    h.slack.shareFile('DADMIN', 'UADMIN', 'huge.txt', Buffer.from('x'), { size: 5 * 1_048_576 });
    // Someone else's file in their own DM is not the admin's to add.
    h.slack.shareFile('DBOB', 'UBOB', 'bob.md', Buffer.from('# Bob\n\nBob notes.\n'));

    const refused = await command(h, app.url, 'kb add', 'UBOB', 'DBOB', 'bob');
    expect(refused).toMatch(/^Only the knowledge base admins \(KB_ADMINS\) can add documents/);
    const inChannel = await command(h, app.url, 'kb add', 'UADMIN', 'C1', 'channel');
    expect(inChannel).toMatch(/^Add documents in a direct message with me/);

    const added = await command(h, app.url, 'kb add', 'UADMIN', 'DADMIN', 'add');
    const lines = added.split('\n');
    expect(lines).toContain('• heat-pumps.md: added (1 passages)');
    expect(lines).toContain('• grants.pdf: added (1 passages)');
    expect(lines).toContain('• budget.xlsx: not added: not a Markdown, text, HTML or PDF file');
    expect(lines).toContain('• huge.txt: not added: it is larger than 1 MB (5 MB)');
    expect(lines.at(-1)).toBe('The knowledge base holds 2 documents.');
    // The oversized file was never downloaded.
    expect(h.slack.calls.filter((c) => c.method === 'files-pri').map((c) => String(c.args.path))).toEqual([
      '/files-pri/FS1/heat-pumps.md',
      '/files-pri/FS2/grants.pdf',
    ]);

    // What research searches (internal_search) now finds them.
    const pool = new pg.Pool({ connectionString: h.env.DATABASE_URL });
    try {
      const hits = await new KnowledgeStore(pool).search('grant pounds building', { limit: 5 });
      expect(hits.map((hit) => hit.title)).toContain('Grant rules');
    } finally {
      await pool.end();
    }
    const again = await command(h, app.url, 'kb add', 'UADMIN', 'DADMIN', 'again');
    expect(again.split('\n')).toContain('• heat-pumps.md: already in the knowledge base, unchanged');
    const listed = await command(h, app.url, 'kb list', 'UBOB', 'C1', 'list');
    expect(listed).toBe(
      'The knowledge base holds 2 documents:\n• Heat pumps in Leeds (markdown, 1 passages)\n• Grant rules (pdf, 1 passages)',
    );
  }, 60_000);
});
