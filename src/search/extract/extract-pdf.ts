import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { type ExtractedText, tidyText } from './extracted-text.js';

/** Text of every page (pages separated by blank lines) and the title, author and date the PDF declares. */
export async function extractPdf(bytes: Uint8Array): Promise<ExtractedText> {
  // pdf.js takes ownership of the buffer it is given; a copy keeps the caller's intact.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const { info } = await getMeta(pdf);
    const declared = (info ?? {}) as Record<string, unknown>;
    const field = (name: string) => {
      const value = declared[name];
      return typeof value === 'string' && value.trim() ? value.trim() : undefined;
    };
    return {
      title: field('Title') ?? '',
      text: tidyText(text.join('\n\n')),
      author: field('Author'),
      publishedAt: pdfDate(field('CreationDate')),
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
