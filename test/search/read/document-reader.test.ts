import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_DEFAULTS } from '../../../src/ports/document-reading.js';
import { DocumentReader } from '../../../src/search/read/document-reader.js';
import { makeDocx } from '../../helpers/make-docx.js';
import { makePdf } from '../../helpers/make-pdf.js';

const readers: DocumentReader[] = [];
const readerWith = (limits: Partial<typeof READ_DEFAULTS> = {}) => {
  const reader = new DocumentReader({ ...READ_DEFAULTS, ...limits });
  readers.push(reader);
  return reader;
};
afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
});

const dull = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i}: all work and no play makes Jack a dull boy.`);
/** A page of `rows` rows of links, tables and text: what a large listing page looks like. */
const bigPage = (rows: number) =>
  `<html><head><title>Listing</title></head><body><main>${Array.from(
    { length: rows },
    (_, i) =>
      `<div class="row"><p>Item ${i}: <a href="/x/${i}">link ${i}</a> about thing ${i}.</p><table><tr><td>${i}</td></tr></table></div>`,
  ).join('\n')}</main></body></html>`;

describe('the document reader', () => {
  it('reads every kind it takes, in a reading thread, with the title the document declares', async () => {
    const reader = readerWith();
    const pdf = makePdf([['Grant rules: up to 7,500 pounds.']], {
      title: 'Grants',
      author: 'Ops',
      created: '20260101',
    });
    const read = async (name: string, bytes: Buffer) => {
      const r = await reader.readFile(name, bytes);
      return r.ok ? [r.doc.title, r.doc.text] : r.reason;
    };
    expect(await read('g.pdf', pdf)).toEqual(['Grants', 'Grant rules: up to 7,500 pounds.']);
    expect(await read('n.docx', makeDocx(['One.', 'Two.'], { deflate: true }))).toEqual([
      'n',
      'One.\n\nTwo.',
    ]);
    expect(await read('a.md', Buffer.from('---\ntitle: Plan\n---\n# Head\n\nBody.'))).toEqual([
      'Plan',
      '# Head\n\nBody.',
    ]);
    expect(await read('t.csv', Buffer.from('a,b\n1,2\n'))).toEqual(['t', 'a,b\n1,2']);
    expect(
      await read(
        'p.html',
        Buffer.from('<html><head><title>Page</title></head><body><p>Hello there.</p></body></html>'),
      ),
    ).toEqual(['Page', 'Hello there.']);
    expect(await read('x.xlsx', Buffer.from('PK'))).toBe(
      'not a PDF, Word (.docx), Markdown, text, HTML or CSV file',
    );
    expect(await read('empty.txt', Buffer.from('  \n'))).toBe('no text found');
    expect(await read('broken.docx', Buffer.from('not a zip'))).toBe(
      'it is not a valid Word file (not a zip archive)',
    );
  });

  it('refuses a small Word file that unpacks past the limit before unpacking it, and one whose zip lies about its sizes', async () => {
    const reader = readerWith({ maxInflatedBytes: 8 * 1_048_576 });
    const bomb = makeDocx(dull(300_000), { deflate: true });
    expect(bomb.length).toBeLessThan(1_048_576);
    expect(await reader.readFile('bomb.docx', bomb)).toEqual({
      ok: false,
      kind: 'too_large',
      reason: expect.stringMatching(/^it unpacks to \d+\.\d MB of text, more than the 8 MB allowed$/),
    });
    // The directory says 1 KB a part; unpacking finds out (the zip library checks each part's size).
    const liar = await reader.readFile('liar.docx', makeDocx(dull(400_000), { deflate: true, lie: true }));
    expect(liar).toEqual({
      ok: false,
      kind: 'unreadable',
      reason: 'it is not a valid Word file (its parts are not the sizes its zip directory declares)',
    });
    // The reader still reads after a thread was stopped.
    expect(await reader.readFile('ok.txt', Buffer.from('Still here.'))).toMatchObject({ ok: true });
  });

  it('stops a read that takes too long, while the event loop stays free, and keeps only the characters allowed', async () => {
    // 50 ms for an 8 MB page: its bytes alone take longer than that to reach the thread and be parsed.
    const slow = readerWith({ maxMs: 50 });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const outcome = await slow.read({ kind: 'html', bytes: Buffer.from(bigPage(60_000)) });
    delay.disable();
    expect(outcome).toEqual({ ok: false, kind: 'too_slow', reason: 'reading it took longer than 0.05 s' });
    // The parser ran in its thread: this one was never held for long (generous for a busy machine).
    expect(delay.max / 1e6).toBeLessThan(1000);

    const cut = await readerWith({ maxChars: 500 }).read({ kind: 'html', bytes: Buffer.from(bigPage(200)) });
    expect(cut).toMatchObject({
      ok: true,
      note: expect.stringMatching(/^only the first 500 of its [\d,]+ characters were kept$/),
    });
    expect(cut.ok && cut.doc.text).toHaveLength(500);
  });

  it("rejects with the caller's reason when the caller stops waiting", async () => {
    const reader = readerWith();
    const stop = new AbortController();
    const reading = reader.read({ kind: 'html', bytes: Buffer.from(bigPage(60_000)) }, stop.signal);
    stop.abort(new Error('cancelled by the requester'));
    await expect(reading).rejects.toThrow('cancelled by the requester');
  });
});
