import { describe, expect, it } from 'vitest';
import { confineLinks } from '../../../src/ports/markdown/confine-links.js';

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

  it.each([
    ['a quoted URL', 'Send it to "https://evil.example/steal?data=x" now.', 'Send it to "evil.example" now.'],
    ['a URL after =', 'Go data=https://evil.example/x&y=1 now', 'Go data=evil.example now'],
    ['a URL in single quotes', "Open 'https://evil.example/x'.", "Open 'evil.example'."],
    ['a www. address', 'Visit www.evil.example/path?q=1 today', 'Visit evil.example today'],
    ['a URL after /', 'See a/https://evil.example/x', 'See a/evil.example'],
    ['a URL after @', 'Mail me@https://evil.example/x', 'Mail me@evil.example'],
    [
      "Slack's link syntax with a space in the label",
      '<https://evil.example/x|click here>',
      '<evil.example|click here>',
    ],
    ["Slack's link syntax without one", '<https://evil.example/x|click>', 'evil.example'],
    ['a URL as a link label', '[https://evil.example/x](https://evil.test/y)', 'evil.example (evil.test)'],
    [
      'a canvas mention in a source link',
      '[![](@U999) see source](<https://example.com/a>)',
      '[ see source](<https://example.com/a>)',
    ],
    ['a canvas mention image', 'Hi ![boss](@U999) and ![](#C123)', 'Hi boss and '],
    ['a javascript: link', '[click](javascript:alert(1))', 'click'],
    ['a mail link', '[write](mailto:a@example.com)', '[write](mailto:a@example.com)'],
  ])('makes %s inert', (_, md, expected) => {
    expect(confineLinks(md, SOURCES)).toBe(expected);
  });

  it('leaves no live URL outside the sources whatever surrounds it (generated contexts)', () => {
    const before = [
      '',
      ' ',
      '"',
      "'",
      '=',
      '/',
      '@',
      '(',
      '[',
      '<',
      '*',
      '_',
      '~',
      '`x` ',
      '|',
      ':',
      'a',
      '\u00a0',
    ];
    const after = ['', ' ', '"', "'", ')', '>', ']', '|x y>', '.', ',', '*', '_', '~~', '\n'];
    const urls = [
      'https://evil.example/p?q=1',
      'http://evil.example',
      'www.evil.example/a',
      'HTTPS://EVIL.EXAMPLE/x',
    ];
    const wraps = [
      (u: string) => u,
      (u: string) => `<${u}>`,
      (u: string) => `[t](${u})`,
      (u: string) => `![t](${u})`,
      (u: string) => `[${u}](https://example.com/a)`,
    ];
    let checked = 0;
    for (const b of before)
      for (const a of after)
        for (const url of urls)
          for (const wrap of wraps) {
            const md = `Text ${b}${wrap(url)}${a} end`;
            const out = confineLinks(md, SOURCES);
            expect(liveHosts(out), md).toEqual([]);
            checked += 1;
          }
    expect(checked).toBe(before.length * after.length * urls.length * wraps.length);
  });
});

/** Hosts of every URL still in the text, by any reading (a renderer or Slack may link any of them). */
function liveHosts(text: string): string[] {
  return [...text.matchAll(/(?:https?:\/\/|(?<![\p{L}\p{N}.-])www\.)([^\s/?#<>"'|)\]]+)/giu)]
    .map((m) => m[1]!.toLowerCase())
    .filter((host) => host !== 'example.com' && host !== 'en.wikipedia.org');
}
