import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderClient } from '../../../src/search/web/provider-client.js';

const shape = z.object({ ok: z.boolean() });
const client = (options: Partial<ConstructorParameters<typeof ProviderClient>[0]> = {}) =>
  new ProviderClient({ label: 'Example', errorDetail: () => undefined, random: () => 0, ...options });

afterEach(() => nock.cleanAll());

describe('ProviderClient', () => {
  it('pauses every caller when one is told to slow down, not just the one that was', async () => {
    const seen: number[] = [];
    nock('https://search.example')
      .get('/a')
      .reply(429, {}, { 'retry-after': '1' })
      .get('/a')
      .reply(200, { ok: true })
      .get('/b')
      .delay(50)
      .reply(() => {
        seen.push(Date.now());
        return [200, { ok: true }];
      });
    const shared = client();
    const started = Date.now();
    const first = shared.request({ url: 'https://search.example/a' }, shape, AbortSignal.timeout(5000));
    // The second caller starts once the 429 has been received (waited on, as a busy machine may take long).
    const paused = () => (shared as unknown as { pausedUntil: number }).pausedUntil > 0;
    while (!paused()) await new Promise((r) => setTimeout(r, 5));
    const second = shared.request({ url: 'https://search.example/b' }, shape, AbortSignal.timeout(5000));
    await Promise.all([first, second]);
    expect(seen[0]! - started).toBeGreaterThanOrEqual(950);
  });

  it('spaces requests when a rate is configured', async () => {
    const times: number[] = [];
    nock('https://search.example')
      .get('/q')
      .times(3)
      .reply(() => {
        times.push(Date.now());
        return [200, { ok: true }];
      });
    const spaced = client({ requestsPerSecond: 5 });
    await Promise.all(
      [1, 2, 3].map(() =>
        spaced.request({ url: 'https://search.example/q' }, shape, AbortSignal.timeout(5000)),
      ),
    );
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(380);
  });

  it('gives the provider\'s reason, not "aborted", when time runs out while waiting to retry', async () => {
    nock('https://search.example').get('/q').reply(429, {}, { 'retry-after': '30' });
    const started = Date.now();
    await expect(
      client().request({ url: 'https://search.example/q' }, shape, AbortSignal.timeout(300)),
    ).rejects.toThrow('Example is rate limiting searches (HTTP 429');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries an unreachable host and then says so', async () => {
    nock('https://search.example')
      .get('/q')
      .times(2)
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    await expect(
      client({ maxAttempts: 2 }).request(
        { url: 'https://search.example/q' },
        shape,
        AbortSignal.timeout(5000),
      ),
    ).rejects.toThrow(/could not reach Example/);
  });

  it('does not retry a refused request', async () => {
    const scope = nock('https://search.example').get('/q').once().reply(400, 'bad query');
    await expect(
      client().request({ url: 'https://search.example/q' }, shape, AbortSignal.timeout(5000)),
    ).rejects.toThrow('Example refused the search (HTTP 400: bad query)');
    expect(scope.isDone()).toBe(true);
  });
});
