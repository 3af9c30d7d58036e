import { describe, expect, it } from 'vitest';
import { confineLinks } from '../../../src/engine/citations/confine-links.js';

const SOURCES = ['https://example.com/a', 'https://en.wikipedia.org/wiki/Foo_(bar)'];

describe('confineLinks', () => {
  it('keeps links to the session sources and turns every other link into its label and domain', () => {
    const md = [
      'See [the study](https://example.com/a) and [this](https://evil.test/x?d=secret "t").',
      'Also ![chart](https://evil.test/pixel.png) and <https://evil.test/auto> and (https://www.evil.test/p).',
      'Kept: <https://example.com/a>, https://en.wikipedia.org/wiki/Foo_(bar) and [wiki](https://en.wikipedia.org/wiki/Foo_(bar)).',
    ].join('\n');
    expect(confineLinks(md, SOURCES)).toBe(
      [
        'See [the study](https://example.com/a) and this (evil.test).',
        'Also chart (evil.test) and evil.test and (evil.test).',
        'Kept: <https://example.com/a>, https://en.wikipedia.org/wiki/Foo_(bar) and [wiki](https://en.wikipedia.org/wiki/Foo_(bar)).',
      ].join('\n'),
    );
  });

  it('leaves code alone', () => {
    const md =
      '```\ncurl https://evil.test/x\n```\nRun `curl https://evil.test/y` then [go](https://evil.test/z).';
    expect(confineLinks(md, SOURCES)).toBe(
      '```\ncurl https://evil.test/x\n```\nRun `curl https://evil.test/y` then go (evil.test).',
    );
  });

  it.each([
    [
      'reference links and their definitions',
      'See [the memo][m] now.\n\n[m]: https://evil.test/m "t"\n',
      'See the memo (evil.test) now.\n\n\n',
    ],
    [
      'an image as a link label',
      '[![logo](https://evil.test/i.png)](https://evil.test/x)',
      'logo (evil.test)',
    ],
    ['an empty label', 'Go [](https://evil.test/x) now', 'Go evil.test now'],
    ['a bare URL with parentheses and a full stop', 'Read https://evil.test/Foo_(bar).', 'Read evil.test.'],
    [
      'a bare source URL with ~~ and __',
      'See https://example.com/a~~b~~__c__d too',
      'See https://example.com/a~~b~~__c__d too',
    ],
    [
      'links in code in a list item, a quote and indented code',
      '- ```\n  https://evil.test/a\n  ```\n> `https://evil.test/b`\n\n    https://evil.test/c',
      '- ```\n  https://evil.test/a\n  ```\n> `https://evil.test/b`\n\n    https://evil.test/c',
    ],
  ])('handles %s', (_, md, expected) => {
    expect(confineLinks(md, [...SOURCES, 'https://example.com/a~~b~~__c__d'])).toBe(expected);
  });
});
