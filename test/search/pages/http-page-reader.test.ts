import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPageReader } from '../../../src/search/pages/http-page-reader.js';
import { makePdf } from '../../helpers/make-pdf.js';
import { pageServer, send } from '../../helpers/page-server.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/pages/${name}`, import.meta.url), 'utf8');
const article = fixture('news-article.html');
const signal = () => AbortSignal.timeout(30_000);

let server: Awaited<ReturnType<typeof pageServer>>;
// Reading the local test server needs the private-address switch (ALLOW_PRIVATE_URLS=true).
// A gap of 5 s between chunks is a stall; shorter could be a busy machine (the stall test uses its own reader).
const reader = new HttpPageReader({ allowPrivate: true, readTimeoutMs: 5000, maxBytes: 2_000_000 });

beforeAll(async () => {
  server = await pageServer({
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.flushHeaders();
      // One byte every 100 ms: never silent long enough for the read timeout, never finished.
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    },
    '/article': send('text/html; charset=utf-8', article),
    '/gzip': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(article));
    },
    '/latin1': send(
      'text/html',
      Buffer.from(
        `<html><head><meta charset="iso-8859-1"><title>Caf\u00e9 menu</title></head><body><p>${'Cr\u00e8me br\u00fbl\u00e9e and caf\u00e9 au lait every morning. '.repeat(8)}</p></body></html>`,
        'latin1',
      ),
    ),
    '/report.pdf': send(
      'application/pdf',
      makePdf(
        [
          ['Annual Water Report 2024', 'Consumption fell 8 percent year on year.'],
          ['Leakage was reduced to 14 percent of supply.'],
        ],
        { title: 'Annual Water Report', author: 'City Water Board', created: '20240305101500' },
      ),
    ),
    '/notes.md': send(
      'text/markdown; charset=utf-8',
      '# Release notes\n\n- Faster startup\n- Fewer crashes\n',
    ),
    '/data.json': send('application/json', '{"users": 1200, "region": "eu-west"}'),
    '/image.png': send('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
    '/missing': send('text/html', '<h1>Gone fishing</h1>', 404),
    '/challenge': send('text/html; charset=UTF-8', fixture('cloudflare-challenge.html'), 403, {
      'cf-mitigated': 'challenge',
      server: 'cloudflare',
    }),
    '/challenge-200': send('text/html; charset=UTF-8', fixture('cloudflare-challenge.html')),
    '/turnstile-form': send(
      'text/html',
      article.replace(
        '</body>',
        '<form class="comment-form"><div class="cf-turnstile"></div><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script></form></body>',
      ),
    ),
    '/huge': send('text/plain', 'x'.repeat(3_000_000)),
    '/slow': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>first bytes');
      // …and then nothing: the read timeout must end the wait.
    },
    '/hop1': send('text/html', '', 302, { location: '/hop2' }),
    '/hop2': send('text/html', '', 301, { location: '/article' }),
    '/loop': send('text/html', '', 302, { location: '/loop' }),
  });
});

afterAll(async () => {
  reader.close();
  await server.close();
});

describe('HttpPageReader', () => {
  it('reads an article page over HTTP with its title, author and date', async () => {
    const result = await reader.read(server.url('/article'), { signal: signal() });
    expect(result.ok && result.page).toMatchObject({
      url: server.url('/article'),
      title: 'Grid-scale batteries doubled in 2024',
      author: 'Priya Natarajan',
      publishedAt: '2025-02-11T09:30:00Z',
    });
    expect(result.ok && result.page.text).toContain('Falling cell prices drove much of the expansion.');
  });

  it('decompresses gzip and decodes a page declared as ISO-8859-1', async () => {
    const gz = await reader.read(server.url('/gzip'), { signal: signal() });
    expect(gz.ok && gz.page.title).toBe('Grid-scale batteries doubled in 2024');
    const latin = await reader.read(server.url('/latin1'), { signal: signal() });
    expect(latin.ok && latin.page.text).toContain('Crème brûlée and café au lait');
  });

  it('turns a PDF into text with the title, author and date it declares', async () => {
    const result = await reader.read(server.url('/report.pdf'), { signal: signal() });
    expect(result.ok && result.page).toMatchObject({
      title: 'Annual Water Report',
      author: 'City Water Board',
      publishedAt: '2024-03-05',
    });
    expect(result.ok && result.page.text).toBe(
      'Annual Water Report 2024\nConsumption fell 8 percent year on year.\n\nLeakage was reduced to 14 percent of supply.',
    );
  });

  it('passes Markdown and JSON through as they are, and refuses binary content', async () => {
    const md = await reader.read(server.url('/notes.md'), { signal: signal() });
    expect(md.ok && md.page).toMatchObject({
      title: 'Release notes',
      text: '# Release notes\n\n- Faster startup\n- Fewer crashes',
    });
    const json = await reader.read(server.url('/data.json'), { signal: signal() });
    expect(json.ok && json.page.text).toBe('{"users": 1200, "region": "eu-west"}');
    expect(json.ok && json.page.title).toBe(`data.json (127.0.0.1)`);
    expect(await reader.read(server.url('/image.png'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'unsupported content type (image/png)',
      kind: 'unreadable',
    });
  });

  it('reports a bot-challenge page as a failure with a reason, and does not mistake a page with a Turnstile form for one', async () => {
    expect(await reader.read(server.url('/challenge'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'blocked by a bot check (Cloudflare)',
      kind: 'bot_check',
    });
    expect(await reader.read(server.url('/challenge-200'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'blocked by a bot check (Cloudflare)',
      kind: 'bot_check',
    });
    const real = await reader.read(server.url('/turnstile-form'), { signal: signal() });
    expect(real.ok).toBe(true);
  });

  it('gives HTTP errors, oversized bodies and stalled servers a plain reason', async () => {
    expect(await reader.read(server.url('/missing'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'HTTP 404 not found',
      kind: 'http_error',
    });
    expect(await reader.read(server.url('/huge'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'page too large (over 2 MB)',
      kind: 'too_large',
    });
    const impatient = new HttpPageReader({ allowPrivate: true, readTimeoutMs: 300 });
    expect(await impatient.read(server.url('/slow'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'the server stopped sending data',
      kind: 'timeout',
    });
    impatient.close();
  });

  it('follows redirects (reporting where the content came from) up to five hops', async () => {
    const result = await reader.read(server.url('/hop1'), { signal: signal() });
    expect(result.ok && result.page.url).toBe(server.url('/article'));
    const before = server.hits.filter((h) => h === '/loop').length;
    expect(await reader.read(server.url('/loop'), { signal: signal() })).toEqual({
      ok: false,
      reason: 'too many redirects (more than 5)',
      kind: 'unreachable',
    });
    expect(server.hits.filter((h) => h === '/loop').length - before).toBe(6);
  });

  it('stops when the caller gives up', async () => {
    const started = Date.now();
    const slowReader = new HttpPageReader({ allowPrivate: true, readTimeoutMs: 10_000 });
    const result = await slowReader.read(server.url('/slow'), { signal: AbortSignal.timeout(200) });
    slowReader.close();
    expect(result).toEqual({ ok: false, reason: 'timed out', kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up on a page trickled byte by byte at its overall deadline', async () => {
    const patient = new HttpPageReader({ allowPrivate: true, readTimeoutMs: 2000, deadlineMs: 1000 });
    const started = Date.now();
    const result = await patient.read(server.url('/trickle'), { signal: signal() });
    expect(result).toEqual({
      ok: false,
      reason: 'the page did not arrive within 1 s (the server is too slow)',
      kind: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(8000);
    patient.close();
  });
});
