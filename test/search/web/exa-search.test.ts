import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { ExaSearch } from '../../../src/search/web/exa-search.js';

const signal = () => AbortSignal.timeout(10_000);

afterEach(() => nock.cleanAll());

describe('ExaSearch', () => {
  it('posts with x-api-key, asks for highlights and uses them as snippets', async () => {
    let sent: unknown;
    nock('https://api.exa.ai', { reqheaders: { 'x-api-key': 'exa-test' } })
      .post('/search', (body) => {
        sent = body;
        return true;
      })
      .reply(200, {
        requestId: 'b5947044c4b78efa9552a7c89b306d95',
        resolvedSearchType: 'neural',
        results: [
          {
            id: 'https://arxiv.example/abs/2401.00001',
            title: 'Scaling laws for retrieval',
            url: 'https://arxiv.example/abs/2401.00001',
            publishedDate: '2024-01-02T00:00:00.000Z',
            author: 'A. Researcher',
            highlights: ['Retrieval improves with corpus size.', 'Gains flatten after 1B tokens.'],
            highlightScores: [0.4, 0.3],
          },
          {
            id: 'x',
            title: null,
            url: 'https://blog.example/post',
            publishedDate: null,
            summary: 'A summary.',
          },
        ],
        costDollars: { total: 0.005 },
      });
    const hits = await new ExaSearch('exa-test').search('retrieval scaling', {
      maxResults: 10,
      signal: signal(),
    });
    expect(sent).toMatchObject({ query: 'retrieval scaling', numResults: 10, contents: { highlights: {} } });
    expect(hits).toEqual([
      {
        title: 'Scaling laws for retrieval',
        url: 'https://arxiv.example/abs/2401.00001',
        snippet: 'Retrieval improves with corpus size. … Gains flatten after 1B tokens.',
        publishedAt: '2024-01-02T00:00:00.000Z',
      },
      { title: '', url: 'https://blog.example/post', snippet: 'A summary.', publishedAt: undefined },
    ]);
  });

  it('names EXA_API_KEY when the key is refused', async () => {
    nock('https://api.exa.ai')
      .post('/search')
      .reply(401, { requestId: 'r', error: 'Invalid API key', tag: 'INVALID_API_KEY' });
    await expect(new ExaSearch('bad').search('q', { maxResults: 5, signal: signal() })).rejects.toThrow(
      'Exa refused the API key (HTTP 401: Invalid API key); check EXA_API_KEY',
    );
  });

  it('retries a server error with backoff', async () => {
    nock('https://api.exa.ai')
      .post('/search')
      .reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'content-type': 'text/html' })
      .post('/search')
      .reply(200, { results: [{ title: 'T', url: 'https://t.example/', highlights: ['h'] }] });
    const hits = await new ExaSearch('k', { random: () => 0 }).search('q', {
      maxResults: 5,
      signal: signal(),
    });
    expect(hits.map((h) => h.title)).toEqual(['T']);
  });
});
