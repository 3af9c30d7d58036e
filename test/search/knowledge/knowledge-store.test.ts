import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestOutcome } from '../../../src/ports/knowledge-library.js';
import { ingestDocuments } from '../../../src/search/knowledge/ingest-documents.js';
import { KnowledgeStore } from '../../../src/search/knowledge/knowledge-store.js';
import { DocumentReader } from '../../../src/search/read/document-reader.js';
import type { Database } from '../../../src/store/database.js';
import { makePdf } from '../../helpers/make-pdf.js';
import { embeddedPglite, realPostgres } from '../../helpers/postgres.js';

const HEATING = `---
title: Office heating policy
owner: facilities
---
# Office heating policy

The office heating runs on weekdays from 7:00 to 19:00.

## Night setback

Outside office hours the thermostat setback lowers the temperature to 16 °C to save energy.

## Radiators

Report cold radiators to facilities; they are bled every October.
`;

const TRAVEL = `<!doctype html><html><head><title>Travel policy</title></head><body>
<nav><a href="/">Intranet home</a></nav>
<article><h1>Travel policy</h1>
<p>Employees travel by train for any journey under six hours. Flights need approval from a director.</p>
<p>Rail fares are booked through the travel desk, which also handles hotel reservations in advance.</p>
<p>First class is allowed only on journeys over four hours or when working with confidential material on board.</p>
</article></body></html>`;

const EXPENSES =
  'Expense claims are filed within 30 days with receipts attached.\n\nMeals are reimbursed up to 40 euros a day.';

describe.each([
  ['real Postgres', realPostgres],
  ['embedded PGlite', embeddedPglite],
])('knowledge base on %s', (_name, open) => {
  let db: Database;
  let store: KnowledgeStore;
  let dir: string;
  const reader = new DocumentReader();
  const ingest = async (...paths: string[]) => {
    const outcomes: IngestOutcome[] = [];
    await ingestDocuments({ store, reader }, paths, (o) => outcomes.push(o));
    return outcomes.map((o) => ({ ...o, path: o.path.slice(dir.length + 1) }));
  };
  const search = (query: string) => store.search(query, { limit: 5 });

  beforeAll(async () => {
    db = await open();
    store = new KnowledgeStore(db.pool);
    dir = mkdtempSync(join(tmpdir(), 'kb-'));
    mkdirSync(join(dir, 'handbook/.drafts'), { recursive: true });
    writeFileSync(join(dir, 'handbook/heating.md'), HEATING);
    writeFileSync(join(dir, 'handbook/travel.html'), TRAVEL);
    writeFileSync(join(dir, 'handbook/expenses.txt'), EXPENSES);
    writeFileSync(join(dir, 'handbook/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, 'handbook/.drafts/secret.md'), '# Secret\n\nDo not ingest.');
    writeFileSync(
      join(dir, 'handbook/budget.pdf'),
      makePdf([['Facilities budget 2025', 'Heating costs are planned at 84,000 euros.']], {
        title: 'Facilities budget',
        author: 'Finance',
        created: '20250110',
      }),
    );
  });
  afterAll(async () => {
    await reader.close();
    await db.close();
    (db as { cleanup?: () => void }).cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ingests a folder recursively, skipping hidden and unsupported files', async () => {
    expect(await store.hasDocuments()).toBe(false);
    expect(await ingest(join(dir, 'handbook'))).toEqual([
      { path: 'handbook/budget.pdf', result: 'added', passages: 1 },
      { path: 'handbook/expenses.txt', result: 'added', passages: 1 },
      { path: 'handbook/heating.md', result: 'added', passages: 3 },
      { path: 'handbook/travel.html', result: 'added', passages: 1 },
    ]);
    expect(await store.hasDocuments()).toBe(true);
    expect((await store.list()).map((d) => [d.title, d.kind])).toEqual([
      ['Facilities budget', 'pdf'],
      ['expenses', 'text'],
      ['Office heating policy', 'markdown'],
      ['Travel policy', 'html'],
    ]);
  });

  it('ranks passages for web-style queries and returns them with their document and section', async () => {
    const [top] = await search('thermostat temperature at night');
    expect(top).toMatchObject({ title: 'Office heating policy', path: join(dir, 'handbook/heating.md') });
    expect(top!.text).toBe(
      'Office heating policy › Night setback\n\nOutside office hours the thermostat setback lowers the temperature to 16 °C to save energy.',
    );
    expect(top!.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A heading match outranks a passing mention in a body.
    expect((await search('radiators'))[0]!.text).toContain('Radiators');
    expect((await search('"travel desk"')).map((h) => h.title)).toEqual(['Travel policy']);
    expect((await search('heating -radiators')).map((h) => h.text)).not.toContainEqual(
      expect.stringContaining('bled every October'),
    );
    expect((await search('heating costs euros')).map((h) => h.title)).toEqual(['Facilities budget']);
  });

  it('falls back to any word when no passage has them all', async () => {
    const hits = await search('rail fares quantum chromodynamics');
    expect(hits.map((h) => h.title)).toEqual(['Travel policy']);
    expect(await search('quantum chromodynamics')).toEqual([]);
    expect(await search("'; drop table kb_documents; --")).toEqual([]);
    expect(await store.hasDocuments()).toBe(true);
  });

  it('skips unchanged files and replaces the passages of a changed one', async () => {
    expect((await ingest(join(dir, 'handbook'))).map((o) => o.result)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    writeFileSync(
      join(dir, 'handbook/heating.md'),
      HEATING.replace('16 °C', '17 °C').replace(/## Radiators[\s\S]*/, ''),
    );
    expect(await ingest(join(dir, 'handbook/heating.md'))).toEqual([
      { path: 'handbook/heating.md', result: 'updated', passages: 2 },
    ]);
    expect((await search('thermostat'))[0]!.text).toContain('17 °C');
    expect(await search('radiators bled October')).toEqual([]);
    const { rows } = await db.pool.query(
      'SELECT count(*)::int AS n FROM kb_passages p JOIN kb_documents d ON d.id = p.document_id WHERE d.path = $1',
      [join(dir, 'handbook/heating.md')],
    );
    expect(rows[0].n).toBe(2);
  });

  it('reports files that disappeared from an ingested folder, and removes a folder', async () => {
    unlinkSync(join(dir, 'handbook/expenses.txt'));
    expect((await ingest(join(dir, 'handbook'))).filter((o) => o.result !== 'unchanged')).toEqual([
      { path: 'handbook/expenses.txt', result: 'gone' },
    ]);
    expect(await ingest(join(dir, 'nowhere'))).toEqual([
      { path: 'nowhere', result: 'missing', reason: 'no such file or folder' },
    ]);
    const under = await store.listUnder(join(dir, 'handbook'));
    expect(under).toHaveLength(4);
    // A sibling folder whose name merely starts the same is not "under" it.
    expect(await store.listUnder(join(dir, 'hand'))).toEqual([]);
    expect(await store.remove(under.map((d) => d.id))).toBe(4);
    expect(await store.hasDocuments()).toBe(false);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM kb_passages');
    expect(rows[0].n).toBe(0);
  });
});
