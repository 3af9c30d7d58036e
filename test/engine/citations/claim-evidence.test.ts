import { describe, expect, it } from 'vitest';
import { bestEvidence, lexicalVerdict } from '../../../src/engine/citations/claim-evidence.js';
import { findQuote } from '../../../src/engine/citations/source-quote.js';
import { readSource } from '../../../src/engine/citations/source-sentences.js';
import {
  cuesOf,
  figuresOf,
  sameWayRound,
  scriptOf,
  termsOf,
} from '../../../src/engine/citations/text-terms.js';

const verdict = (claim: string, page: string) => {
  const evidence = bestEvidence(claim, readSource(page));
  return { verdict: evidence && lexicalVerdict(evidence), evidence };
};

const EN_PAGE = `# Annual results 2023

Contoso Bank reported total revenue of $60.9 billion in 2023, up 126% from a year earlier.
Its investment-banking unit was not the largest contributor, according to the filing.
| Segment | Revenue |
| Retail | 12.5 |
The bank's headcount fell to 48,000 employees by December.`;

const ZH_PAGE = `2023年年度报告

英伟达2023财年的营收达到了609亿美元，同比增长126%。数据中心业务是最大的收入来源。
该公司并非全球最大的芯片制造商，台积电的产能更高。`;

describe('words and figures in every script', () => {
  it('reads Chinese as overlapping character pairs and figures with their magnitudes', () => {
    expect(termsOf('数据中心业务')).toEqual(['数据', '据中', '中心', '心业', '业务']);
    // 609亿 is 60.9 billion; full-width digits are digits; Chinese numerals of two characters count.
    expect(figuresOf('营收达到了６０９亿美元，增长百分之三十')).toEqual(['60900000000', '30']);
    expect(figuresOf('revenue of $60.9 billion, 1,200 staff, 3,5 %')).toEqual(['60900000000', '1200', '3.5']);
    expect(figuresOf('3.5 billion', true)).toEqual(['3500000000', '3.5']);
    expect(scriptOf('英伟达的营收 NVIDIA')).toBe('cjk');
    expect(scriptOf('Выручка компании выросла')).toBe('cyrillic');
  });

  it('sees negation and direction in English, Chinese, Japanese and Russian, and not in look-alikes', () => {
    expect([...cuesOf('X was not the global leader')]).toEqual(['negation']);
    expect([...cuesOf("Sales didn't rise")]).toEqual(['negation', 'up']);
    expect([...cuesOf('该公司并非全球最大的芯片制造商')]).toEqual(['negation']);
    expect([...cuesOf('日本銀行は金利を引き上げなかった')]).toContain('negation');
    expect([...cuesOf('Выручка не выросла')]).toEqual(['negation', 'up']);
    // 非常 is "very" and 未来 "future": no negation there.
    expect([...cuesOf('未来的市场非常大')]).toEqual([]);
    expect(sameWayRound(cuesOf('revenue fell'), cuesOf('revenue rose'))).toBe(false);
    expect(sameWayRound(cuesOf('revenue rose'), cuesOf('revenue rose, not fell'))).toBe(false);
  });
});

describe('lexical evidence', () => {
  it('settles a claim whose words and every figure are in one sentence, quoting that sentence whole', () => {
    const { verdict: v, evidence } = verdict(
      'Contoso Bank reported total revenue of $60.9 billion in 2023.',
      EN_PAGE,
    );
    expect(v).toBe('supported');
    expect(evidence!.quote).toBe(
      'Contoso Bank reported total revenue of $60.9 billion in 2023, up 126% from a year earlier.',
    );
  });

  it('never settles on figures without the words, on a changed figure, or on a negation the page lacks', () => {
    // The figures are on the page, but for total revenue, not the investment-banking unit.
    expect(
      verdict('Investment-banking fees made up 126% of 2023 growth, $60.9 billion.', EN_PAGE).verdict,
    ).not.toBe('supported');
    expect(
      verdict('Contoso Bank reported total revenue of $61.9 billion in 2023.', EN_PAGE).verdict,
    ).not.toBe('supported');
    expect(
      verdict('Contoso Bank did not report total revenue of $60.9 billion in 2023.', EN_PAGE).verdict,
    ).not.toBe('supported');
    // The page says it negated; the claim says the opposite.
    expect(
      verdict('Its investment-banking unit was the largest contributor, according to the filing.', EN_PAGE)
        .verdict,
    ).not.toBe('supported');
    expect(verdict("The bank's headcount rose to 48,000 employees by December.", EN_PAGE).verdict).not.toBe(
      'supported',
    );
  });

  it('settles a Chinese claim on a Chinese page, sentence by 。, and refuses a negated one', () => {
    const { verdict: v, evidence } = verdict('英伟达2023财年营收达到609亿美元，同比增长126%。', ZH_PAGE);
    expect(v).toBe('supported');
    expect(evidence!.quote).toBe('英伟达2023财年的营收达到了609亿美元，同比增长126%。');
    expect(verdict('英伟达2023财年营收没有达到609亿美元，同比增长126%。', ZH_PAGE).verdict).not.toBe(
      'supported',
    );
    // The page says it is not the biggest; a claim that it is must go to the judge.
    expect(verdict('该公司是全球最大的芯片制造商。', ZH_PAGE).verdict).not.toBe('supported');
  });

  it('leaves a claim in another script to the judge, with the passage its figures point to', () => {
    const { verdict: v, evidence } = verdict('Contoso银行2023年总营收为609亿美元。', EN_PAGE);
    expect(v).toBe('uncertain');
    expect(evidence!.passage).toContain('$60.9 billion');
    // Nothing in common: still never "unsupported" by words alone across scripts.
    expect(verdict('该银行的员工人数在十二月下降了。', EN_PAGE).verdict).toBe('uncertain');
  });

  it('quotes prose only: a table row or a heading is never the quote', () => {
    const { evidence } = verdict('Retail revenue was 12.5 in the segment table.', EN_PAGE);
    expect(evidence!.quote).toBe('');
    expect(lexicalVerdict(evidence!)).not.toBe('supported');
  });

  it('cuts an overlong sentence at clause boundaries around the figures, marking the cuts', () => {
    const long = `${'The committee heard evidence from many parties, '.repeat(8)}and it found that exports grew by 14% to 3.2 million tonnes, ${'which several members welcomed, '.repeat(8)}as the report notes.`;
    const { evidence } = verdict('Exports grew by 14% to 3.2 million tonnes.', long);
    expect(evidence!.quote.length).toBeLessThanOrEqual(324);
    expect(evidence!.quote).toContain('exports grew by 14% to 3.2 million tonnes');
    expect(evidence!.quote.startsWith('… ')).toBe(true);
    expect(evidence!.quote.endsWith(' …')).toBe(true);
  });
});

describe('finding a quote a model copied', () => {
  const text = 'He said: “Prices rose 3%—mostly in May.” Then   the index fell.';
  it('tolerates quotation marks, dashes, whitespace, case and ellipses, and maps back to the source', () => {
    const span = findQuote(text, '"prices rose 3% - mostly in may."'.replace(' - ', '-'));
    expect(span && text.slice(span.start, span.end)).toBe('Prices rose 3%—mostly in May.');
    const gap = findQuote(text, 'Prices rose 3% … the index fell');
    expect(gap && text.slice(gap.start, gap.end)).toBe(
      'Prices rose 3%—mostly in May.” Then   the index fell',
    );
    expect(findQuote(text, 'Prices rose 4%')).toBeNull();
    expect(findQuote(text, 'May')).toBeNull();
  });
});
