import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileFetcher } from '../../src/cli/local-files.js';
import { READ_DEFAULTS } from '../../src/ports/document-reading.js';
import type { SessionView, SharedFile } from '../../src/ports/research.js';
import { DocumentReader } from '../../src/search/read/document-reader.js';
import { readGivenFiles } from '../../src/sessions/read-given-files.js';
import type { SlackApi } from '../../src/slack/api/slack-api.js';
import { slackFileFetcher } from '../../src/slack/shared-files.js';
import type { Database } from '../../src/store/database.js';
import { FileReadStore } from '../../src/store/file-read-store.js';
import { SourceTextStore } from '../../src/store/source-text-store.js';
import { makeDocx } from '../helpers/make-docx.js';
import { realPostgres } from '../helpers/postgres.js';
import { insertSession } from '../helpers/sessions.js';

/** Slack's file host, as far as reading files goes: what it serves, and every download asked of it. */
const FILES: Record<string, Buffer> = {
  'notes.md': Buffer.from('# Notes\n\nThe boiler room is 12 square metres.'),
  'long.txt': Buffer.from('word '.repeat(5000)),
  'bomb.docx': makeDocx(
    Array.from({ length: 200_000 }, () => 'All work and no play makes Jack a dull boy.'),
    { deflate: true },
  ),
  'stuck.pdf': Buffer.from('%PDF-1.4 never read'),
};
const downloads: string[] = [];
const server = createServer((req, res) => {
  const name = req.url!.slice(1);
  downloads.push(name);
  res.end(FILES[name]);
});
let origin = '';
let db: Database;
const reader = new DocumentReader({ ...READ_DEFAULTS, maxChars: 10_000, maxInflatedBytes: 1_048_576 });
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  db = await realPostgres();
});
afterAll(async () => {
  await reader.close();
  await db?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const api = () =>
  ({ client: { token: 'xoxb-secret', slackApiUrl: `${origin}/api/` } }) as unknown as SlackApi;
const given = (name: string): SharedFile => ({
  key: `file:${name}`,
  name,
  from: `${origin}/${name}`,
  size: 100,
});
const view = (names: string[], continues: string[] = []) =>
  ({ files: { given: names.map(given), skipped: [] }, continues }) as unknown as SessionView;
const silent = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as never;

describe('reading the files given with a question', () => {
  it('reads each file once, names what it refused and why, and never resumes into a read the process did not finish', async () => {
    const deps = {
      fetchers: { slack: slackFileFetcher(api()) },
      sources: new SourceTextStore(db.pool),
      reads: new FileReadStore(db.pool),
      reader,
    };
    const first = await insertSession(db.pool, { origin: 'slack' });
    // A process died while reading stuck.pdf in this session (its record says "reading", no end).
    await deps.reads.begin(first, 'file:stuck.pdf');
    const names = ['notes.md', 'long.txt', 'bomb.docx', 'stuck.pdf'];

    const files = await readGivenFiles(deps, { id: first, origin: 'slack' }, view(names), silent);
    expect(downloads).toEqual(['notes.md', 'long.txt', 'bomb.docx']);
    expect(files!.given.map((f) => [f.name, f.note])).toEqual([
      ['notes.md', undefined],
      ['long.txt', 'only the first 10,000 of its 24,999 characters were kept'],
    ]);
    expect(files!.skipped).toEqual([
      { name: 'bomb.docx', reason: 'it unpacks to 18.6 MB of text, more than the 1 MB allowed' },
      { name: 'stuck.pdf', reason: 'reading it was interrupted (the app stopped while reading it)' },
    ]);
    expect((await deps.sources.find([first], 'file:long.txt'))!.text).toBe('word '.repeat(2000).trim());

    // The next run of the same session reads nothing again and says the same.
    expect(await readGivenFiles(deps, { id: first, origin: 'slack' }, view(names), silent)).toEqual(files);
    expect(downloads).toHaveLength(3);

    // [Research more]: the continuing session uses what the first kept and refused; nothing is downloaded.
    const more = await insertSession(db.pool, { origin: 'slack' });
    expect(await readGivenFiles(deps, { id: more, origin: 'slack' }, view(names, [first]), silent)).toEqual(
      files,
    );
    expect(downloads).toHaveLength(3);
  });
});

describe("a terminal's given files", () => {
  it("are read from its disk; a process with no way to fetch an origin's files refuses them, saying why", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'given-'));
    writeFileSync(join(dir, 'plan.md'), '# Plan\n\nThe pilot starts in March.');
    const file: SharedFile = { key: 'file:plan', name: 'plan.md', from: join(dir, 'plan.md'), size: 40 };
    const local = { files: { given: [file], skipped: [] }, continues: [] } as unknown as SessionView;
    const stores = { sources: new SourceTextStore(db.pool), reads: new FileReadStore(db.pool), reader };
    const id = await insertSession(db.pool, { origin: 'cli' });
    const files = await readGivenFiles(
      { ...stores, fetchers: { cli: localFileFetcher } },
      { id, origin: 'cli' },
      local,
      silent,
    );
    expect(files).toEqual({ given: [file], skipped: [] });
    expect((await stores.sources.find([id], 'file:plan'))!.text).toContain('The pilot starts in March.');

    const elsewhere = await insertSession(db.pool, { origin: 'slack' });
    const refused = await readGivenFiles(
      { ...stores, fetchers: { cli: localFileFetcher } },
      { id: elsewhere, origin: 'slack' },
      local,
      silent,
    );
    expect(refused).toEqual({
      given: [],
      skipped: [{ name: 'plan.md', reason: 'this process cannot fetch it' }],
    });
  });
});
