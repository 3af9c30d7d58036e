import { describe, expect, it } from 'vitest';
import { bestEvidence, judgeInput, lexicalVerdict } from '../../../src/engine/citations/claim-evidence.js';
import { readSource, tableRowText } from '../../../src/engine/citations/source-sentences.js';

/** A ranking as pages are kept (html-to-text: one row a line, cells separated by " | "), after a long menu. */
const RANKING = `Largest insurers by total assets, 2024
${'Markets · Data · Tools · Funds · '.repeat(30)}
The ranking lists insurers by total assets at the end of their 2024 financial year.
Rank | Company | Country | Total assets (US$ billion) |
1 | Allianz | Germany | 1,085.2 |
2 | Prudential Financial | United States | 735.6 |
3 | AXA | France | 709.7 |
Berkshire Hathaway, whose insurance operations are part of a conglomerate, is not ranked.`;

describe('tables as evidence', () => {
  it('reads Markdown, kept-page, tab and CSV rows whole, each knowing its header, and scales figures by the header’s unit', () => {
    const ranking = readSource(RANKING);
    const rows = ranking.sentences.filter((s) => s.header !== undefined);
    expect(rows.map((r) => r.text)).toEqual([
      'Rank | Company | Country | Total assets (US$ billion) |',
      '1 | Allianz | Germany | 1,085.2 |',
      '2 | Prudential Financial | United States | 735.6 |',
      '3 | AXA | France | 709.7 |',
    ]);
    const allianz = ranking.sentences.findIndex((s) => s.text.includes('Allianz'));
    expect(ranking.figures[allianz]).toContain('1085200000000');
    expect(ranking.figures[allianz]).toContain('1085.2');
    expect(tableRowText(ranking, allianz)).toBe(
      '(table) Rank | Company | Country | Total assets (US$ billion) → 1 | Allianz | Germany | 1,085.2',
    );

    const markdown = readSource('| 类别 | 销量（万辆） |\n|---|---|\n| 纯电动 | 668.5 |');
    expect(markdown.sentences.map((s) => s.text)).toEqual(['| 类别 | 销量（万辆） |', '| 纯电动 | 668.5 |']);
    expect(markdown.figures[1]).toContain('6685000');
    const csv = readSource(
      'Year,Close,Change\n2023,2062.92,13.1%\n2024,2623.84,27.2%\nGold rose, fell, and rose again.',
    );
    expect(csv.sentences.filter((s) => s.header === 0).map((s) => s.text)).toEqual([
      'Year,Close,Change',
      '2023,2062.92,13.1%',
      '2024,2623.84,27.2%',
    ]);
    expect(csv.sentences.at(-1)!.header).toBeUndefined();
  });

  it('shows the judge a table row under its header, and never settles a claim on a row by words', () => {
    const claim = 'Allianz was the largest insurer by total assets in 2024, with $1,085.2 billion.';
    const input = judgeInput(claim, readSource(RANKING));
    expect(input.located).toBe(true);
    expect(input.passage).toContain(
      '[table] Rank | Company | Country | Total assets (US$ billion) |\n1 | Allianz',
    );
    // Another row's figure, said of another company: for the judge, not settled.
    const wrong = bestEvidence(
      'Prudential Financial held total assets of $1,085.2 billion in 2024.',
      readSource(RANKING),
    )!;
    expect(lexicalVerdict(wrong)).toBe('uncertain');
  });

  it('finds the place in a page of another language by its figures, scaled as each language writes them', () => {
    const input = judgeInput(
      '2024年の総資産で見ると、アリアンツは1兆852億ドルで首位だった。',
      readSource(RANKING),
    );
    expect(input).toMatchObject({ located: true });
    expect(input.passage).toContain('1 | Allianz | Germany | 1,085.2 |');
    expect(input.passage).not.toContain('Markets · Data');
  });
});

describe('a claim of several facts', () => {
  const PAGE = `Offshore wind in the United Kingdom
Home | Energy | Renewables | Statistics
The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023.
Hornsea 2 was completed in 2022 with 165 turbines.
Moray East has 100 turbines.
Auction round 5 attracted no bids for offshore wind.
The government's target is 50 GW of offshore wind by 2030.
Dogger Bank will have a capacity of 3.6 GW.
Offshore wind generated 17% of the country's electricity in 2023.`;

  it('gets the places of all its facts, each a numbered excerpt in page order, and no excerpt that adds nothing', () => {
    const input = judgeInput(
      'The UK had 14.7 GW of offshore wind at the end of 2023, which generated 17% of its electricity, and it aims for 50 GW by 2030.',
      readSource(PAGE),
    );
    // The best place holds 50 GW and 17% (three sentences apart at most); 14.7 GW, far above, is its own excerpt.
    expect(input.passage.split('\n')).toEqual([
      '(excerpt 1) The United Kingdom had 14.7 GW of offshore wind capacity in operation at the end of 2023.',
      "(excerpt 2) The government's target is 50 GW of offshore wind by 2030. Dogger Bank will have a capacity of 3.6 GW. Offshore wind generated 17% of the country's electricity in 2023.",
    ]);
    expect(input.passage).not.toMatch(/Hornsea|Auction/);
    // One fact, one place.
    const single = judgeInput('Hornsea 2 was completed in 2022 with 165 turbines.', readSource(PAGE));
    expect(single.passage).not.toContain('(excerpt');
  });
});
