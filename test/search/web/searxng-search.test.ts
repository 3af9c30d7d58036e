import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { SearxngSearch } from '../../../src/search/web/searxng-search.js';

const signal = () => AbortSignal.timeout(10_000);

afterEach(() => nock.cleanAll());

describe('SearxngSearch', () => {
  it('asks the instance for JSON under its base path and caps the results', async () => {
    nock('http://searxng.internal:8080')
      .get('/searx/search')
      .query({ q: 'rust async runtimes', format: 'json' })
      .reply(200, {
        query: 'rust async runtimes',
        number_of_results: 0,
        results: [
          {
            url: 'https://tokio.example/',
            title: 'Tokio',
            content: 'An asynchronous runtime for <b>Rust</b>.',
            engine: 'duckduckgo',
            engines: ['duckduckgo', 'brave'],
            score: 2.5,
            category: 'general',
            publishedDate: null,
          },
          {
            url: 'https://smol.example/',
            title: 'smol',
            content: 'A small runtime.',
            publishedDate: '2024-05-01T00:00:00',
          },
          { url: 'https://third.example/', title: 'third', content: 'cut' },
        ],
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [['google', 'timeout']],
      });
    const hits = await new SearxngSearch('http://searxng.internal:8080/searx').search('rust async runtimes', {
      maxResults: 2,
      signal: signal(),
    });
    expect(hits).toEqual([
      {
        title: 'Tokio',
        url: 'https://tokio.example/',
        snippet: 'An asynchronous runtime for Rust.',
        publishedAt: undefined,
      },
      {
        title: 'smol',
        url: 'https://smol.example/',
        snippet: 'A small runtime.',
        publishedAt: '2024-05-01T00:00:00',
      },
    ]);
  });

  it('explains how to enable the JSON API when the instance answers 403', async () => {
    nock('http://searxng.internal:8080')
      .get('/search')
      .query(true)
      .reply(403, '<!DOCTYPE html><title>403 Forbidden</title><h1>Forbidden</h1>', {
        'content-type': 'text/html',
      });
    await expect(
      new SearxngSearch('http://searxng.internal:8080').search('q', { maxResults: 5, signal: signal() }),
    ).rejects.toThrow(
      'SearXNG refused the JSON API (HTTP 403); add json under search.formats in its settings.yml',
    );
  });
});
