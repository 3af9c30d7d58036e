import { describe, expect, it } from 'vitest';
import type { Source } from '../../src/engine/session-state.js';
import { createSourceRegistry } from '../../src/engine/sources/source-registry.js';
import { canonicalUrl, shortUrl } from '../../src/ports/canonical-url.js';

describe('canonicalUrl', () => {
  it('drops fragments, tracking parameters, default ports and trailing slashes', () => {
    expect(canonicalUrl('https://Example.com:443/a/b/?utm_source=x&id=3&fbclid=y#top')).toBe(
      'https://example.com/a/b?id=3',
    );
    expect(canonicalUrl('https://example.com/a/?gclid=1')).toBe('https://example.com/a');
    expect(canonicalUrl('https://example.com/')).toBe('https://example.com/');
    expect(canonicalUrl('http://example.com:80/x?UTM_Campaign=1')).toBe('http://example.com/x');
  });

  it('drops user:password@', () => {
    expect(canonicalUrl('https://user:secret@example.com/a')).toBe('https://example.com/a');
    expect(canonicalUrl('http://token@example.com:80/')).toBe('http://example.com/');
  });

  it('keeps meaningful query parameters and their order', () => {
    expect(canonicalUrl('https://e.com/search?q=a&page=2')).toBe('https://e.com/search?q=a&page=2');
  });

  it('rejects what is not an absolute http(s) URL', () => {
    for (const raw of ['ftp://e.com/x', 'javascript:alert(1)', 'example.com/a', '', 'file:///etc/passwd']) {
      expect(canonicalUrl(raw)).toBeNull();
    }
  });

  it('shortens for progress lines', () => {
    expect(shortUrl('https://www.nature.com/articles/s41586-024-0001-x')).toBe(
      'nature.com/articles/s41586-024-0001-x',
    );
    expect(shortUrl(`https://e.com/${'a'.repeat(100)}`).endsWith('…')).toBe(true);
  });
});

describe('source registry', () => {
  it('numbers each key once, keeps the first number, and enriches a known source', () => {
    const sources: Source[] = [];
    const added: number[] = [];
    const registry = createSourceRegistry(sources, (s) => added.push(s.n));
    const a = registry.add({
      kind: 'web',
      key: 'https://a.com/x',
      url: 'https://a.com/x',
      title: '',
      snippet: 's',
    });
    const b = registry.add({ kind: 'kb', key: 'kb:7', title: 'Doc', path: 'docs/a.md', snippet: 's' });
    const again = registry.add({
      kind: 'web',
      key: 'https://a.com/x',
      url: 'https://a.com/x',
      title: 'A page',
      snippet: 'other',
      author: 'Ann',
    });
    expect([a.n, b.n, again.n]).toEqual([1, 2, 1]);
    expect(again.title).toBe('A page');
    expect(again.author).toBe('Ann');
    expect(again.snippet).toBe('s');
    expect(added).toEqual([1, 2]);
    expect(sources).toHaveLength(2);
    // A registry rebuilt from a checkpoint's array continues the numbering.
    expect(
      createSourceRegistry(sources, () => {}).add({ kind: 'kb', key: 'kb:8', title: 'D', snippet: '' }).n,
    ).toBe(3);
  });
});
