import { describe, expect, it } from 'vitest';
import { sortSharedFiles } from '../../src/slack/shared-files.js';

const SLACK = 'https://slack.com/api/';
const file = (name: string, url: string, size = 1000) => ({
  id: `F${name.length}`,
  name,
  size,
  url_private_download: url,
});

describe('the files shared with a question', () => {
  it('lists as read only files research will read, and names the others with why', () => {
    const sorted = sortSharedFiles(
      [
        file('grants.pdf', 'https://files.slack.com/files-pri/T1-F1/download/grants.pdf'),
        file('notes.docx', 'http://files.slack.com:8080/files-pri/T1-F2/download/notes.docx'),
        file('plan.md', 'https://evil.example/plan.md'),
        file('budget.xlsx', 'https://files.slack.com/files-pri/T1-F3/download/budget.xlsx'),
        file('big.pdf', 'https://files.slack.com/files-pri/T1-F4/download/big.pdf', 30 * 1_048_576),
        file('odd.txt', 'not a url'),
      ],
      20 * 1_048_576,
      SLACK,
    );
    expect(sorted.given.map((f) => f.name)).toEqual(['grants.pdf']);
    expect(sorted.skipped).toEqual([
      { name: 'notes.docx', reason: "not on Slack's file host" },
      { name: 'plan.md', reason: "not on Slack's file host" },
      { name: 'budget.xlsx', reason: expect.stringMatching(/^not a PDF/) },
      { name: 'big.pdf', reason: 'larger than 20 MB' },
      { name: 'odd.txt', reason: "not on Slack's file host" },
    ]);
  });
});
