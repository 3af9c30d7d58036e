import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES } from '../../src/model-prices.js';
import { reportDocument, usageFooter } from '../../src/ports/report-markdown.js';
import { addModelUsage, emptyUsage, estimateCost, spendCost, totalTokens } from '../../src/ports/usage.js';

const prices = {
  models: { 'gpt-4.1': { input: 2, output: 8 }, 'gpt-4.1-mini': { input: 0.4, output: 1.6 } },
  searchPer1k: 5,
};

describe('usage', () => {
  it('prices a dated snapshot as its family, another version not at all, and an unpriced model at the dearest price under the caps', () => {
    const table = { models: DEFAULT_MODEL_PRICES, searchPer1k: 0, hostedSearchPer1k: 10 };
    const of = (model: string) => {
      const usage = emptyUsage();
      addModelUsage(usage, 'orchestrator', model, { inputTokens: 1_000_000, outputTokens: 1_000_000 });
      return usage;
    };
    expect(estimateCost(of('gpt-5.5-2026-04-23'), table)).toBe(35);
    expect(estimateCost(of('gpt-5.4-mini'), table)).toBeCloseTo(5.25, 6);
    // gpt-5.3-codex is not gpt-5 at gpt-5's price: it has no price.
    expect(estimateCost(of('gpt-5.3-codex'), table)).toBeNull();
    // Under the caps it costs as the dearest (gpt-5.5-pro's $30 in, $180 out), never as free.
    expect(spendCost(of('gpt-5.3-codex'), table)).toBe(210);
    const searched = of('gpt-5.5');
    searched.hostedSearches = 100;
    expect(spendCost(searched, table)).toBe(36);
  });

  it('accumulates tokens per phase and model', () => {
    const usage = emptyUsage();
    addModelUsage(usage, 'agent', 'gpt-4.1', { inputTokens: 1000, outputTokens: 100 });
    addModelUsage(usage, 'agent', 'gpt-4.1', { inputTokens: 500, outputTokens: 50 });
    addModelUsage(usage, 'final_report', 'gpt-4.1-mini-2025-04-14', {
      inputTokens: 10_000,
      outputTokens: 2000,
    });
    expect(usage.models).toEqual([
      {
        purpose: 'agent',
        model: 'gpt-4.1',
        calls: 2,
        inputTokens: 1500,
        outputTokens: 150,
        cachedInputTokens: 0,
      },
      {
        purpose: 'final_report',
        model: 'gpt-4.1-mini-2025-04-14',
        calls: 1,
        inputTokens: 10_000,
        outputTokens: 2000,
        cachedInputTokens: 0,
      },
    ]);
    expect(totalTokens(usage)).toBe(13_650);
  });

  it('prices dated snapshots by their family (longest prefix) and adds searches', () => {
    const usage = emptyUsage();
    usage.webSearches = 10;
    addModelUsage(usage, 'agent', 'gpt-4.1-mini-2025-04-14', {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
    });
    expect(estimateCost(usage, prices)).toBeCloseTo(0.4 + 1.6 + 0.05, 6);
  });

  it('reports an unknown cost rather than $0 when a model has no price', () => {
    const usage = emptyUsage();
    addModelUsage(usage, 'agent', 'llama3.1:8b', { inputTokens: 10, outputTokens: 10 });
    expect(estimateCost(usage, prices)).toBeNull();
    const report = {
      markdown: '',
      sources: [],
      partial: null,
      durationMs: 461_000,
      sourcesSeen: 22,
      costUsd: null,
    };
    expect(usageFooter(report, usage, 's-1')).toBe(
      '7m 41s · 22 sources seen · 0 pages read · 20 tokens · cost n/a · session s-1',
    );
  });

  const report = {
    markdown: 'Body [1].',
    sources: [],
    partial: null,
    durationMs: 61_000,
    sourcesSeen: 3,
    costUsd: 0.5,
  };

  it('counts refused or failed page reads apart from pages read', () => {
    const usage = { ...emptyUsage(), pagesRead: 1, pagesFailed: 10 };
    expect(usageFooter(report, usage, 's-1')).toBe(
      '1m 01s · 3 sources seen · 1 page read (10 could not be read) · 0 tokens · ~$0.50 · session s-1',
    );
  });

  it("gives report.md one title: the report's own H1, else the question", () => {
    const titled = reportDocument('Why?', { ...report, markdown: '# Heat pumps\n\nBody.' }, 'footer');
    expect(titled.match(/^# /gm)).toEqual(['# ']);
    expect(titled.startsWith('# Heat pumps')).toBe(true);
    const partial = reportDocument(
      'Why?',
      { ...report, markdown: '> **Partial report:** time ran out.\n\n# Heat pumps\n\nBody.' },
      'footer',
    );
    expect(partial.match(/^# .*/gm)).toEqual(['# Heat pumps']);
    expect(partial.startsWith('# Heat pumps\n\n> **Partial report:** time ran out.\n\nBody.')).toBe(true);
    const untitled = reportDocument('Why?\nmore', report, 'footer');
    expect(untitled.match(/^# .*/gm)).toEqual(['# Why?']);
  });

  it('prices input served from the prompt cache at the cached price, and shows the cached share', () => {
    const usage = emptyUsage();
    addModelUsage(usage, 'agent', 'gpt-4.1', {
      inputTokens: 1_000_000,
      outputTokens: 0,
      cachedInputTokens: 800_000,
    });
    const table = { models: { 'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 } }, searchPer1k: 0 };
    expect(estimateCost(usage, table)).toBeCloseTo(0.2 * 2 + 0.8 * 0.5);
    // Without a cached price, cached input costs what input costs.
    expect(
      estimateCost(usage, { models: { 'gpt-4.1': { input: 2, output: 8 } }, searchPer1k: 0 }),
    ).toBeCloseTo(2);
    expect(usageFooter({ ...report, costUsd: 0.8 }, usage, 's-1')).toContain(
      '1000k tokens (80% of input cached) · ~$0.80',
    );
    expect(usageFooter(report, emptyUsage(), 's-1')).toContain('· 0 tokens ·');
  });
});
