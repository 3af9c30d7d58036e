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
});
