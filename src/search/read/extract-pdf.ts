import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type ExtractedText, tidyText } from './extracted-text.js';

/** PDF.js's own data: character maps (CJK and other non-Latin encodings) and the standard fonts' metrics. */
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

let pdfjs: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined;

/**
 * PDF.js, loaded once per reading thread. Its Node build looks for a canvas
 * package at load and prints a warning without one; text needs no canvas, and
 * nothing of a reading thread may reach the terminal, so the load is quiet.
 */
function loadPdfJs() {
  pdfjs ??= (async () => {
    const log = console.log;
    console.log = () => {};
    try {
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      console.log = log;
    }
  })();
  return pdfjs;
}

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
  const { getDocument } = await loadPdfJs();
  // pdf.js takes ownership of the buffer it is given; a copy keeps the caller's intact.
  // Errors only (verbosity 0): pdf.js would print its warnings about a damaged file on the terminal.
  // No font loading: text only (PDF.js 6 compiles nothing of a PDF to code, so there is no eval to turn off).
  const task = getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: join(PDFJS_DIR, 'cmaps/'),
    cMapPacked: true,
    standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts/'),
  });
  const pdf = await task.promise.catch(async (error: unknown) => {
    await task.destroy();
    throw error;
  });
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages && chars <= maxChars; n += 1) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      // A page's items joined as written, each line ended where PDF.js saw one end.
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('');
      page.cleanup();
      pages.push(text);
      chars += text.length;
    }
    const { info } = await pdf.getMetadata();
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
    await task.destroy();
  }
}

/** "D:20240305101500+01'00'" → "2024-03-05". */
function pdfDate(value: string | undefined): string | undefined {
  const match = value && /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(value);
  if (!match) return undefined;
  return [match[1], match[2] ?? '01', match[3] ?? '01'].join('-');
}
