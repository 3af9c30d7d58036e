import { describe, expect, it } from 'vitest';
import { createSourceRegistry } from '../../../src/engine/sources/source-registry.js';
import { plainMarkup } from '../../../src/ports/plain-markup.js';
import type { Source } from '../../../src/ports/report.js';

describe('the source registry', () => {
  it('keeps titles and authors as plain words: a file, page or tool named to ping pings no one', () => {
    const sources: Source[] = [];
    const registry = createSourceRegistry(sources, () => {});
    registry.add({
      kind: 'file',
      key: 'file:F1',
      title: '<!channel> Leeds plan <@U123> for <!subteam^S9|@leads> in <#C1|ops>.docx',
      author: '<!here> @everyone',
      snippet: '',
    });
    registry.add({
      kind: 'web',
      key: 'https://a.example/',
      title: 'Read <https://evil.example|this> now',
      snippet: '',
    });
    expect(sources.map((s) => [s.title, s.author])).toEqual([
      ['@-channel Leeds plan @someone for @-leads in #ops.docx', '@-here @-everyone'],
      ['Read this (https://evil.example) now', undefined],
    ]);
    // A name that is already plain stays as it was, e-mail addresses included.
    expect(plainMarkup('Ann’s notes (ann@example.com)')).toBe('Ann’s notes (ann@example.com)');
  });
});
