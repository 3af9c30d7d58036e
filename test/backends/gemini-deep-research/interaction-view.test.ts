import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInteraction } from '../../../src/backends/gemini-deep-research/interaction-view.js';

const recorded = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/interactions', `${name}.json`), 'utf8'));

describe('readInteraction', () => {
  it('reads a running interaction: its thought summaries, searches and pages, each with an id', () => {
    const view = readInteraction(recorded('in-progress'));
    expect(view.status).toBe('in_progress');
    expect(view.text).toBe('');
    expect(view.thoughts).toEqual([
      { id: 'step:1', text: '**Scoping the research**\n\nI will start with the first TPU announcement.' },
    ]);
    expect(view.searches).toEqual([{ id: 'gs_01', queries: ['Google TPU v1 announcement 2016'] }]);
    expect(view.reads).toEqual([{ id: 'uc_01', urls: ['https://cloud.google.com/tpu/docs/intro-to-tpu'] }]);
    expect(view.usage).toBeUndefined();
  });

  it('reads a finished one: the report, its citations turned from byte to character offsets, and the usage', () => {
    const view = readInteraction(recorded('completed'));
    expect(view.status).toBe('completed');
    const spans = view.citations.map((c) => view.text.slice(c.start, c.end));
    // The second span comes after "Ü" (two bytes, one character): byte offsets would cut it short.
    expect(spans).toEqual(['Google announced its first TPU in 2016.', 'Über-fast inference followed.']);
    expect(view.citations[0]).toMatchObject({
      url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFexample1',
      title: 'cloud.google.com',
    });
    // Thinking is billed as output; searches are Google Search's grounding calls.
    expect(view.usage).toEqual({
      inputTokens: 412803,
      outputTokens: 27350,
      cachedInputTokens: 120400,
      searches: 31,
    });
  });

  it('reads the older shape too (outputs instead of steps) and names a failure', () => {
    const view = readInteraction({
      id: 'v1_old',
      status: 'failed',
      outputs: [
        { type: 'thought', summary: [{ type: 'text', text: 'Planning' }] },
        {
          type: 'text',
          text: 'Partial.',
          annotations: [{ type: 'url_citation', url: 'https://a.example/', start_index: 0, end_index: 8 }],
        },
      ],
      error: { message: 'Research could not complete.' },
    });
    expect(view.thoughts.map((t) => t.text)).toEqual(['Planning']);
    expect(view.text).toBe('Partial.');
    expect(view.citations).toEqual([{ url: 'https://a.example/', title: '', start: 0, end: 8 }]);
    expect(view.error).toBe('Research could not complete.');
  });

  it('refuses what is not an interaction, and skips citations whose offsets do not fit', () => {
    expect(() => readInteraction({ error: { code: 500 } })).toThrow('not an interaction');
    const view = readInteraction({
      id: 'v1_x',
      status: 'completed',
      steps: [
        {
          type: 'model_output',
          content: [
            {
              type: 'text',
              text: 'Short.',
              annotations: [
                { type: 'url_citation', url: 'https://a.example/', start_index: 3, end_index: 99 },
              ],
            },
          ],
        },
      ],
    });
    expect(view.citations).toEqual([]);
  });
});
