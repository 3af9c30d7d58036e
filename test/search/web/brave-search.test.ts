import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { BraveSearch } from '../../../src/search/web/brave-search.js';

const signal = () => AbortSignal.timeout(10_000);

afterEach(() => nock.cleanAll());

const rateLimited = {
  type: 'ErrorResponse',
  error: {
    id: '6f2f5c6e-0000-4000-8000-000000000000',
    status: 429,
    code: 'RATE_LIMITED',
    detail: 'Request rate limit exceeded for plan.',
    meta: { plan: 'Free', rate_limit: 1, rate_current: 2, quota_limit: 2000, quota_current: 15 },
  },
  time: 1732000000,
};

describe('BraveSearch', () => {
  it('sends the key in X-Subscription-Token with count and no decorations, and strips markup from snippets', async () => {
    const scope = nock('https://api.search.brave.com', {
      reqheaders: { 'x-subscription-token': 'BSA-test', accept: 'application/json' },
    })
      .get('/res/v1/web/search')
      .query({ q: 'heat pumps "cold climate"', count: '20', text_decorations: 'false' })
      .reply(200, {
        type: 'search',
        query: { original: 'heat pumps "cold climate"' },
        mixed: { type: 'mixed', main: [] },
        web: {
          type: 'search',
          results: [
            {
              title: 'Cold-climate <strong>heat pumps</strong>',
              url: 'https://energy.example/ccashp',
              is_source_local: false,
              description:
                'Field data from <strong>Maine</strong> &amp; Vermont &#x2014; COP 2.1 at -15&nbsp;°C.',
              page_age: '2024-11-02T08:00:00',
              age: 'November 2, 2024',
              profile: { name: 'Energy Example' },
            },
          ],
          family_friendly: true,
        },
      });
    const hits = await new BraveSearch('BSA-test').search('heat pumps "cold climate"', {
      maxResults: 50,
      signal: signal(),
    });
    expect(hits).toEqual([
      {
        title: 'Cold-climate heat pumps',
        url: 'https://energy.example/ccashp',
        snippet: 'Field data from Maine & Vermont — COP 2.1 at -15 °C.',
        publishedAt: '2024-11-02T08:00:00',
      },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('treats a response without web results as no results', async () => {
    nock('https://api.search.brave.com')
      .get('/res/v1/web/search')
      .query(true)
      .reply(200, { type: 'search', query: { original: 'zzz' } });
    expect(await new BraveSearch('k').search('zzz', { maxResults: 5, signal: signal() })).toEqual([]);
  });

  it('reads the wait from X-RateLimit-Reset on 429', async () => {
    nock('https://api.search.brave.com')
      .get('/res/v1/web/search')
      .query(true)
      .reply(429, rateLimited, { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-reset': '1, 1419704' })
      .get('/res/v1/web/search')
      .query(true)
      .reply(200, { web: { results: [{ title: 'ok', url: 'https://ok.example/', description: 'fine' }] } });
    const started = Date.now();
    const hits = await new BraveSearch('k').search('q', { maxResults: 5, signal: signal() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(hits).toHaveLength(1);
  });

  it("gives up after its attempts with the provider's own words", async () => {
    const scope = nock('https://api.search.brave.com')
      .get('/res/v1/web/search')
      .query(true)
      .times(2)
      .reply(429, rateLimited, { 'x-ratelimit-reset': '0, 1419704' });
    const search = new BraveSearch('k', { maxAttempts: 2 });
    await expect(search.search('q', { maxResults: 5, signal: signal() })).rejects.toThrow(
      'Brave Search is rate limiting searches (HTTP 429: Request rate limit exceeded for plan.)',
    );
    expect(scope.isDone()).toBe(true);
  });

  it('names BRAVE_API_KEY when the token is invalid', async () => {
    nock('https://api.search.brave.com')
      .get('/res/v1/web/search')
      .query(true)
      .reply(422, {
        type: 'ErrorResponse',
        error: {
          id: 'x',
          status: 422,
          code: 'SUBSCRIPTION_TOKEN_INVALID',
          detail: 'The provided subscription token is invalid.',
        },
      });
    await expect(new BraveSearch('bad').search('q', { maxResults: 5, signal: signal() })).rejects.toThrow(
      'Brave Search refused the search (HTTP 422: The provided subscription token is invalid.)',
    );
  });
});
