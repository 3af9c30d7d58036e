import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { renderExport } from '../../src/export/export-report.js';
import type { FinalReport } from '../../src/ports/report.js';
import type { ExportInput } from '../../src/ports/report-export.js';
import { extractPdf } from '../../src/search/read/extract-pdf.js';

const sources = [
  {
    n: 1,
    kind: 'web',
    key: 'a',
    title: 'EV Outlook',
    url: 'https://ev.example/outlook',
    snippet: '',
    quotes: ['sales reached 14 million in 2023'],
  },
  { n: 2, kind: 'web', key: 'b', title: '充电价格', url: 'https://ev.example/prices', snippet: '' },
] as FinalReport['sources'];

const input = (markdown: string, question: string): ExportInput => ({
  question,
  date: '2026-11-29T10:00:00Z',
  footer: '3m 10s · 2 sources · session 1a2b3c4d',
  report: { markdown, sources, partial: null, durationMs: 1, sourcesSeen: 2, costUsd: null },
});

const ENGLISH = input(
  `# EV sales

## Summary

Sales reached **14 million** in 2023 [1], and chargers cost less in Asia [2].

## Prices by region

| Region | Price | Source |
| --- | --- | --- |
| Europe | 42 | [2] |
| Asia | 35 | [2] |

## Figures

**Global EV sales** (million units)

| When | EV sales (million units) | Source |
| --- | ---: | --- |
| 2022 | 10.5 | [1] |
| 2023 | 14 | [1] |`,
  'How fast are EV sales growing?',
);
const CHINESE = input(
  `# 电动汽车销量

## 摘要

2023年全球电动汽车销量达到1400万辆[1]，亚洲的充电价格更低[2]。

## 各地区价格

| 地区 | 价格 | 来源 |
| --- | --- | --- |
| 欧洲 | 42 | [2] |`,
  '电动汽车销量增长有多快？',
);

const docxText = async (bytes: Uint8Array) =>
  (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
const pdfText = async (bytes: Uint8Array) => (await extractPdf(bytes)).text.replace(/\s+/g, ' ');

describe('a report exported as PDF and Word', () => {
  it.each([
    ['English', ENGLISH, ['EV sales', 'Summary', 'Prices by region', 'Figures', 'Sources', 'EV Outlook']],
    ['Chinese', CHINESE, ['电动汽车销量', '摘要', '各地区价格', 'Sources', '充电价格']],
  ])(
    '%s: opens with every heading and citation number, read back by the readers the project uses',
    async (_, doc, headings) => {
      const pdf = await renderExport('pdf', doc);
      expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
      const word = await renderExport('docx', doc);
      for (const text of [await pdfText(pdf), (await docxText(word)).replace(/\s+/g, ' ')]) {
        for (const heading of headings) expect(text).toContain(heading);
        for (const n of [1, 2]) expect(text).toContain(`[${n}]`);
        expect(text).toContain(doc.question.slice(0, 6));
        expect(text).toContain('2026-11-29');
      }
    },
  );

  it('renders Arabic, Cyrillic and Japanese in the PDF (no missing glyphs)', async () => {
    const doc = input(
      '# تقرير المبيعات\n\nارتفعت المبيعات إلى 14 مليون [1]. Продажи выросли [2]. 販売が伸びた。',
      'سؤال',
    );
    const text = await pdfText(await renderExport('pdf', doc));
    expect(text).not.toContain('\u0000');
    expect(text).toMatch(/[\u0600-\u06ff]{2,}/u);
    expect(text).toContain('Продажи выросли');
    expect(text).toContain('販売が伸びた');
  });

  it('links each citation to its source in the list, and each source to its page', async () => {
    const word = await renderExport('docx', ENGLISH);
    const html = (await mammoth.convertToHtml({ buffer: Buffer.from(word) })).value;
    expect(html).toMatch(/<a href="#source-1">\[1\]<\/a>/);
    expect(html).toContain('href="https://ev.example/outlook"');
    expect(html).toContain('“sales reached 14 million in 2023”');
  });
});
