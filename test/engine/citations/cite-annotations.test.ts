import { describe, expect, it } from 'vitest';
import { citeAnnotations } from '../../../src/engine/citations/cite-annotations.js';
import { createSourceRegistry } from '../../../src/engine/sources/source-registry.js';
import type { Source } from '../../../src/ports/report.js';

describe('citations from url_citation annotations', () => {
  it('numbers each cited URL once across answers, replacing link spans and following cited words', () => {
    const sources: Source[] = [];
    const registry = createSourceRegistry(sources, () => {});
    const link = '([Ofgem](https://www.ofgem.gov.uk/energy-price-cap))';
    const first = `Electricity costs 26.35p/kWh ${link}. Gas costs 6.29p/kWh.`;
    const a = citeAnnotations(
      first,
      [
        {
          url: 'https://www.ofgem.gov.uk/energy-price-cap',
          title: 'Ofgem',
          start: 29,
          end: 29 + link.length,
        },
        {
          url: 'https://www.example.org/gas?utm_source=x',
          title: 'Gas',
          start: first.indexOf('Gas'),
          end: first.length - 1,
        },
      ],
      registry,
    );
    expect(a.text).toBe('Electricity costs 26.35p/kWh [1]. Gas costs 6.29p/kWh [2].');
    expect(a.cited).toEqual([1, 2]);
    // A second task citing the same page (another spelling of its URL) gets the same number.
    const b = citeAnnotations(
      'Prices rose.',
      [{ url: 'https://www.ofgem.gov.uk/energy-price-cap/#prices', title: 'Ofgem cap', start: 0, end: 11 }],
      registry,
    );
    expect(b.text).toBe('Prices rose [1].');
    expect(sources.map((s) => s.n)).toEqual([1, 2]);
  });

  it('ignores an annotation outside the text or on a URL that cannot be a source', () => {
    const registry = createSourceRegistry([], () => {});
    const out = citeAnnotations(
      'Short.',
      [
        { url: 'https://a.example/', title: 'A', start: 3, end: 99 },
        { url: 'javascript:alert(1)', title: 'B', start: 0, end: 5 },
      ],
      registry,
    );
    expect(out).toEqual({ text: 'Short.', cited: [] });
  });
});
