import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { createWebSearch } from '../../../src/search/web/create-web-search.js';

const searchFor = (env: Record<string, string>) => createWebSearch(loadConfig(env).search);

describe('createWebSearch', () => {
  it('uses SEARCH_PROVIDER, else the first provider with a key, else none', () => {
    expect(searchFor({ SEARCH_PROVIDER: 'exa', EXA_API_KEY: 'e', TAVILY_API_KEY: 't' })?.name).toBe('exa');
    expect(searchFor({ BRAVE_API_KEY: 'b', SEARXNG_URL: 'http://searx:8080' })?.name).toBe('brave');
    expect(searchFor({ SEARXNG_URL: 'http://searx:8080' })?.name).toBe('searxng');
    expect(searchFor({ TAVILY_API_KEY: 't', SEARCH_PROVIDER: 'none' })).toBeUndefined();
    expect(searchFor({})).toBeUndefined();
  });

  it('names the missing variable when a provider is chosen without it', () => {
    expect(() => searchFor({ SEARCH_PROVIDER: 'searxng' })).toThrow(
      'SEARCH_PROVIDER=searxng needs SEARXNG_URL: set it, or choose another provider.',
    );
    expect(() => loadConfig({ SEARCH_REQUESTS_PER_SECOND: 'fast' })).toThrow(/SEARCH_REQUESTS_PER_SECOND/);
  });
});
