import { getDocumentProxy, getMeta } from 'unpdf';
import { type ExtractedText, tidyText } from './extracted-text.js';

/**
 * Text of the PDF's pages (separated by blank lines) and the title, author
 * and date it declares. Pages are read one at a time and reading stops once
 * `maxChars` characters are in hand, so a long PDF never holds every page's
 * text and layout in memory at once.
 */
export async function extractPdf(
  bytes: Uint8Array,
  maxChars = Number.POSITIVE_INFINITY,
): Promise<ExtractedText & { pages: { read: number; of: number } }> {
  // pdf.js takes ownership of the buffer it is given; a copy keeps the caller's intact.
  // Errors only (verbosity 0): pdf.js would print its warnings about a damaged file on the terminal.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages && chars <= maxChars; n += 1) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      // As unpdf's extractText joins a page's items.
      const text = content.items
        .map((item: { str?: string; hasEOL?: boolean }) =>
          item.str == null ? '' : item.str + (item.hasEOL ? '\n' : ''),
        )
        .join('');
      page.cleanup();
      pages.push(text);
      chars += text.length;
    }
    const { info } = await getMeta(pdf);
    const declared = (info ?? {}) as Record<string, unknown>;
    const field = (name: string) => {
      const value = declared[name];
      return typeof value === 'string' && value.trim() ? value.trim() : undefined;
    };
    return {
      title: field('Title') ?? '',
      text: tidyText(pages.join('\n\n')),
      author: field('Author'),
      publishedAt: pdfDate(field('CreationDate')),
      pages: { read: pages.length, of: pdf.numPages },
    };
  } finally {
    await pdf.destroy();
  }
}

/** "D:20240305101500+01'00'" → "2024-03-05". */
function pdfDate(value: string | undefined): string | undefined {
  const match = value && /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(value);
  if (!match) return undefined;
  return [match[1], match[2] ?? '01', match[3] ?? '01'].join('-');
}
