import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/ports/errors.js';
import { TavilySearch } from '../../../src/search/web/tavily-search.js';

const signal = () => AbortSignal.timeout(10_000);

afterEach(() => nock.cleanAll());

describe('TavilySearch', () => {
  it('posts the query with a bearer key and normalises the results', async () => {
    let sent: unknown;
    const scope = nock('https://api.tavily.com', {
      reqheaders: { authorization: 'Bearer tvly-test', 'content-type': 'application/json' },
    })
      .post('/search', (body) => {
        sent = body;
        return true;
      })
      .reply(200, {
        query: 'tidal energy 2024',
        follow_up_questions: null,
        answer: null,
        images: [],
        results: [
          {
            url: 'https://example.org/tides',
            title: 'Tidal power &amp; the grid',
            content: 'Tidal stream generators produced 12 GWh in 2024.',
            score: 0.91,
            raw_content: null,
            published_date: 'Tue, 05 Mar 2024 10:00:00 GMT',
          },
          {
            url: 'https://example.com/b',
            title: 'B',
            content: 'Second result',
            score: 0.5,
            raw_content: null,
          },
        ],
        response_time: 1.2,
      });
    const hits = await new TavilySearch('tvly-test').search('tidal energy 2024', {
      maxResults: 10,
      signal: signal(),
    });
    expect(sent).toMatchObject({ query: 'tidal energy 2024', max_results: 10, search_depth: 'basic' });
    expect(hits).toEqual([
      {
        title: 'Tidal power & the grid',
        url: 'https://example.org/tides',
        snippet: 'Tidal stream generators produced 12 GWh in 2024.',
        publishedAt: 'Tue, 05 Mar 2024 10:00:00 GMT',
      },
      { title: 'B', url: 'https://example.com/b', snippet: 'Second result', publishedAt: undefined },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('names the variable when the key is refused, without retrying', async () => {
    const scope = nock('https://api.tavily.com')
      .post('/search')
      .reply(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
    const error = await new TavilySearch('bad')
      .search('q', { maxResults: 5, signal: signal() })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(
      'Tavily refused the API key (HTTP 401: Unauthorized: missing or invalid API key.); check TAVILY_API_KEY',
    );
    expect(error.retryable).toBe(false);
    expect(scope.isDone()).toBe(true);
  });

  it('reports a plan limit (432) as it is, without retrying', async () => {
    nock('https://api.tavily.com')
      .post('/search')
      .reply(432, { detail: { error: "This request exceeds your plan's set usage limit." } });
    await expect(new TavilySearch('k').search('q', { maxResults: 5, signal: signal() })).rejects.toThrow(
      "Tavily refused the search (HTTP 432: This request exceeds your plan's set usage limit.)",
    );
  });

  it('waits as long as Retry-After says on 429, then succeeds', async () => {
    nock('https://api.tavily.com')
      .post('/search')
      .reply(429, { detail: { error: 'Rate limit exceeded' } }, { 'retry-after': '1' })
      .post('/search')
      .reply(200, { results: [{ url: 'https://a.example/', title: 'A', content: 'alpha' }] });
    const started = Date.now();
    const hits = await new TavilySearch('k').search('q', { maxResults: 5, signal: signal() });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(hits.map((h) => h.url)).toEqual(['https://a.example/']);
  });

  it('turns an unexpected body into a provider error instead of a crash', async () => {
    nock('https://api.tavily.com').post('/search').reply(200, { answer: 'no results field' });
    await expect(new TavilySearch('k').search('q', { maxResults: 5, signal: signal() })).rejects.toThrow(
      'Tavily answered in an unexpected format',
    );
  });
});
