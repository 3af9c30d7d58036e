import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockedAddress } from '../../../src/search/pages/address-policy.js';
import type { Resolve } from '../../../src/search/pages/guarded-lookup.js';
import { HttpPageReader } from '../../../src/search/pages/http-page-reader.js';
import { ALLOWED_LOCAL } from '../../helpers/local-hosts.js';
import { pageServer, send } from '../../helpers/page-server.js';

const PUBLIC = '93.184.215.14';
const names: Record<string, string[]> = {
  'news.example.com': [PUBLIC],
  'intranet.corp.example': ['10.20.30.40'],
  'metadata.corp.example': ['169.254.169.254'],
  'sneaky.example.com': ['127.0.0.1'],
  'dual.example.com': ['fd12:3456::1', '10.0.0.8'],
};
// Fake DNS for made-up names; real resolution for everything else (localhost).
const resolve: Resolve = async (host) =>
  names[host] ??
  (await import('node:dns/promises')).lookup(host, { all: true }).then((r) => r.map((e) => e.address));

let server: Awaited<ReturnType<typeof pageServer>>;
const strict = new HttpPageReader({ resolve });
const read = (url: string) => strict.read(url, { signal: AbortSignal.timeout(30_000) });

beforeAll(async () => {
  server = await pageServer({
    '/secret': send('text/plain', 'internal admin credentials: hunter2 '.repeat(5)),
  });
});
afterAll(async () => {
  strict.close();
  await server.close();
});
afterEach(() => nock.cleanAll());

describe('the SSRF guard', () => {
  it('refuses every private, loopback, link-local, CGNAT, unspecified and ULA target, and nothing reaches the server', async () => {
    const port = server.port;
    const targets = [
      `http://127.0.0.1:${port}/secret`,
      `http://localhost:${port}/secret`,
      `http://[::1]:${port}/secret`,
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://100.64.0.1/',
      `http://0.0.0.0:${port}/secret`,
      'http://[fd00::1]/',
      `http://[::ffff:127.0.0.1]:${port}/secret`,
      `http://2130706433:${port}/secret`, // 127.0.0.1 written as a number
      `http://sneaky.example.com:${port}/secret`,
      'http://intranet.corp.example/wiki',
      'http://dual.example.com/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
    ];
    for (const url of targets) {
      const result = await read(url);
      expect(result.ok, url).toBe(false);
      expect(!result.ok && result.reason, url).toMatch(/^refused: /);
    }
    expect(server.hits).toEqual([]);
  });

  it('says why in words the model can pass on', async () => {
    expect(await read('http://169.254.169.254/latest/meta-data/')).toEqual({
      ok: false,
      reason: 'refused: 169.254.169.254 is a link-local address',
      kind: 'refused',
    });
    expect(await read('http://intranet.corp.example/wiki')).toEqual({
      ok: false,
      reason:
        'refused: intranet.corp.example resolves to a non-public address (10.20.30.40 is a private address)',
      kind: 'refused',
    });
    expect(await read('file:///etc/passwd')).toEqual({
      ok: false,
      reason: 'refused: only http and https URLs can be read, not file:',
      kind: 'refused',
    });
  });

  it('checks every redirect: a public page redirecting to a private one is refused', async () => {
    nock('http://news.example.com')
      .get('/story')
      .reply(302, '', { location: `http://127.0.0.1:${server.port}/secret` })
      .get('/cloud')
      .reply(301, '', { location: 'http://metadata.corp.example/latest/meta-data/' });
    expect(await read('http://news.example.com/story')).toEqual({
      ok: false,
      reason: 'refused: 127.0.0.1 is a loopback address',
      kind: 'refused',
    });
    expect(await read('http://news.example.com/cloud')).toEqual({
      ok: false,
      reason:
        'refused: metadata.corp.example resolves to a non-public address (169.254.169.254 is a link-local address)',
      kind: 'refused',
    });
    expect(server.hits).toEqual([]);
  });

  it('reads a public page', async () => {
    nock('http://news.example.com')
      .get('/ok')
      .reply(
        200,
        `<html><head><title>Fine</title></head><body><p>${'Public text. '.repeat(30)}</p></body></html>`,
        {
          'content-type': 'text/html',
        },
      );
    const result = await read('http://news.example.com/ok');
    expect(result.ok && result.page.title).toBe('Fine');
  });

  it('reads a local server when private addresses are allowed (ALLOW_PRIVATE_URLS=true)', async () => {
    const open = new HttpPageReader({ resolve, allowPrivate: true });
    const result = await open.read(`http://localhost:${server.port}/secret`, {
      signal: AbortSignal.timeout(30_000),
    });
    open.close();
    expect(result.ok && result.page.text).toContain('internal admin credentials');
    expect(server.hits).toEqual(['/secret']);
  });
});

describe('blockedAddress', () => {
  it('lets ordinary public unicast through and names every special range', () => {
    expect(blockedAddress('93.184.215.14')).toBeUndefined();
    expect(blockedAddress('2606:4700:4700::1111')).toBeUndefined();
    expect(blockedAddress('::ffff:10.1.2.3')).toBe('10.1.2.3 is a private address');
    expect(blockedAddress('100.100.100.200')).toBe('100.100.100.200 is a carrier-grade NAT address');
    expect(blockedAddress('64:ff9b::a00:1')).toMatch(/special-purpose/);
    expect(blockedAddress('255.255.255.255')).toBe('255.255.255.255 is a broadcast address');
    // IPv4-compatible IPv6 (::/96), in any notation.
    // (a URL's [::127.0.0.1] reaches us as [::7f00:1])
    expect(blockedAddress(new URL('http://[::127.0.0.1]/').hostname)).toMatch(/IPv4-compatible address$/);
    expect(blockedAddress('::a00:1')).toMatch(/deprecated IPv4-compatible address$/);
    expect(blockedAddress('::1')).toBe('::1 is a loopback address');
  });
});

describe('DNS rebinding', () => {
  it('checks the address actually connected to, not only the one seen when the URL was checked', async () => {
    let calls = 0;
    // Public when the URL is checked, loopback (our server) when the socket connects.
    const rebinding: Resolve = async () => (++calls === 1 ? [PUBLIC] : ['127.0.0.1']);
    const reader = new HttpPageReader({ resolve: rebinding });
    // Let this one name through nock to the real network stack, where the guarded lookup runs.
    nock.enableNetConnect((host) => host.startsWith('rebind.example.com') || ALLOWED_LOCAL.test(host));
    const hitsBefore = server.hits.length;
    try {
      const result = await reader.read(`http://rebind.example.com:${server.port}/secret`, {
        signal: AbortSignal.timeout(30_000),
      });
      expect(result).toEqual({
        ok: false,
        reason:
          'refused: rebind.example.com resolves to a non-public address (127.0.0.1 is a loopback address)',
        kind: 'refused',
      });
      expect(calls).toBe(2);
      expect(server.hits.length).toBe(hitsBefore);
    } finally {
      nock.enableNetConnect(ALLOWED_LOCAL);
      reader.close();
    }
  });
});
