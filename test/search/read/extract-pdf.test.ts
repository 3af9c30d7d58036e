import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractPdf } from '../../../src/search/read/extract-pdf.js';
import { makePdf } from '../../helpers/make-pdf.js';

afterEach(() => vi.restoreAllMocks());

describe('reading a PDF', () => {
  it('reads its pages, and says nothing on the terminal about a damaged one: it only fails', async () => {
    const printed: string[] = [];
    for (const method of ['log', 'warn', 'info', 'error'] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
    const info = { title: 'Grants', author: 'Ops', created: 'D:20260101000000Z' };
    const read = await extractPdf(makePdf([['Grant rules: up to 7,500 pounds per building.']], info));
    expect(read.text).toContain('Grant rules: up to 7,500 pounds per building.');
    await expect(extractPdf(Buffer.from('%PDF-1.4 this file is damaged'))).rejects.toThrow(/Invalid PDF/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // pdf.js's "Warning: Indexing all PDF objects" once reached the terminal of a person running `ask --file`.
    expect(printed).toEqual([]);
  });
});
