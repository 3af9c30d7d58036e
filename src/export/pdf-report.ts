import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { ExportInput } from '../ports/report-export.js';
import type { DocBlock, Run } from './document-blocks.js';
import { reportOutline } from './report-outline.js';

const require = createRequire(import.meta.url);
/**
 * Noto Sans SC (OFL, from @expo-google-fonts/noto-sans-sc): Latin, Greek,
 * Cyrillic, Chinese and Japanese kana in one font, subset into each PDF.
 */
const FONT = {
  normal: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
};
/** Noto Sans Arabic (OFL) for Arabic-script runs, shaped and set right to left by PDFKit's fontkit. */
const ARABIC = {
  normal: require.resolve('@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf'),
};
const ARABIC_RUN =
  /([\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff][\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff\s\u060c\u061b\u061f]*)/u;
let ready = false;

/** The report as a PDF: headings, tables, citations linked to the numbered sources (each with its quotes). */
export async function pdfReport(input: ExportInput): Promise<Uint8Array> {
  if (!ready) {
    pdfmake.addFonts({
      Noto: { normal: FONT.normal, bold: FONT.bold, italics: FONT.normal, bolditalics: FONT.bold },
      NotoArabic: {
        normal: ARABIC.normal,
        bold: ARABIC.bold,
        italics: ARABIC.normal,
        bolditalics: ARABIC.bold,
      },
    });
    // A report never makes the renderer fetch anything: no address, and only the fonts on disk.
    const fonts = new Set([FONT.normal, FONT.bold, ARABIC.normal, ARABIC.bold]);
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path: string) => fonts.has(path));
    ready = true;
  }
  const outline = reportOutline(input);
  const content: unknown[] = [
    { text: [run({ text: outline.title })], style: 'title' },
    { text: [run({ text: outline.meta })], style: 'meta' },
    ...outline.body.map(block),
    { text: 'Sources', style: 'h2' },
    ...outline.sources.map((s) => ({
      id: `source-${s.n}`,
      stack: [
        { text: s.runs.map(run) },
        ...s.quotes.map((q) => ({ text: [run({ text: `“${q}”` })], style: 'quote' })),
      ],
      margin: [0, 0, 0, 6],
    })),
    { text: [run({ text: outline.footer })], style: 'meta', margin: [0, 12, 0, 0] },
  ];
  const doc = pdfmake.createPdf({
    info: { title: outline.title },
    content,
    defaultStyle: { font: 'Noto', fontSize: 10, lineHeight: 1.25 },
    styles: {
      title: { fontSize: 20, bold: true, margin: [0, 0, 0, 6] },
      meta: { fontSize: 9, color: '#555555', margin: [0, 0, 0, 12] },
      h1: { fontSize: 16, bold: true, margin: [0, 12, 0, 4] },
      h2: { fontSize: 14, bold: true, margin: [0, 10, 0, 4] },
      h3: { fontSize: 12, bold: true, margin: [0, 8, 0, 4] },
      quote: { italics: true, color: '#444444', margin: [12, 2, 0, 2] },
      code: { fontSize: 9, color: '#333333', background: '#f2f2f2' },
      th: { bold: true, fillColor: '#eeeeee' },
    },
    pageMargins: [50, 50, 50, 50],
  });
  return new Uint8Array(await doc.getBuffer());
}

function block(b: DocBlock): unknown {
  switch (b.kind) {
    case 'heading':
      return { text: b.runs.map(run), style: `h${Math.min(3, Math.max(1, b.level))}` };
    case 'paragraph':
      return { text: b.runs.map(run), margin: [0, 0, 0, 6] };
    case 'quote':
      return { text: b.runs.map(run), style: 'quote' };
    case 'list':
      return {
        [b.ordered ? 'ol' : 'ul']: b.items.map((item) => ({ text: item.map(run) })),
        ...(b.ordered && b.start ? { start: b.start } : {}),
        margin: [0, 0, 0, 6],
      };
    case 'table': {
      const width = Math.max(b.header.length, ...b.rows.map((r) => r.length));
      const cells = (row: Run[][], head = false) =>
        Array.from({ length: width }, (_, i) => ({
          text: (row[i] ?? []).map(run),
          ...(head ? { style: 'th' } : {}),
        }));
      return {
        table: {
          headerRows: 1,
          widths: Array(width).fill('*'),
          body: [cells(b.header, true), ...b.rows.map((r) => cells(r))],
        },
        layout: 'lightHorizontalLines',
        margin: [0, 4, 0, 8],
      };
    }
    case 'code':
      return { text: b.text, style: 'code', margin: [0, 0, 0, 6] };
  }
}

/** A run as PDF text: its Arabic-script parts set in the Arabic font (PDFKit shapes them and sets them right to left). */
function run(r: Run): Record<string, unknown> {
  if (!ARABIC_RUN.test(r.text)) return styled(r.text, r);
  return {
    text: r.text
      .split(ARABIC_RUN)
      .filter(Boolean)
      .map((part) => ({ ...styled(part, r), ...(ARABIC_RUN.test(part) ? { font: 'NotoArabic' } : {}) })),
  };
}

function styled(text: string, r: Run): Record<string, unknown> {
  return {
    text,
    ...(r.bold ? { bold: true } : {}),
    ...(r.italic ? { italics: true } : {}),
    ...(r.code ? { style: 'code' } : {}),
    ...(r.url ? { link: r.url, color: '#1a5fb4' } : {}),
    ...(r.source ? { linkToDestination: `source-${r.source}`, color: '#1a5fb4' } : {}),
  };
}
