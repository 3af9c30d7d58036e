import {
  Bookmark,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  InternalHyperlink,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { ExportInput } from '../ports/report-export.js';
import type { DocBlock, Run } from './document-blocks.js';
import { reportOutline } from './report-outline.js';

/** Word shows every script with this font where it is installed, and its own East Asian font where not. */
const FONT = { ascii: 'Calibri', hAnsi: 'Calibri', eastAsia: 'Noto Sans SC', cs: 'Arial' };
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;

/** The report as a Word document: headings, tables, citations linked to the numbered sources (each with its quotes). */
export async function docxReport(input: ExportInput): Promise<Uint8Array> {
  const outline = reportOutline(input);
  const children: (Paragraph | Table)[] = [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      children: [new TextRun({ text: outline.title, font: FONT })],
    }),
    new Paragraph({
      children: [new TextRun({ text: outline.meta, italics: true, color: '555555', font: FONT })],
    }),
    ...outline.body.flatMap(block),
    new Paragraph({
      heading: HeadingLevel.HEADING_2,
      children: [new TextRun({ text: 'Sources', font: FONT })],
    }),
    ...outline.sources.flatMap((s) => [
      new Paragraph({ children: [new Bookmark({ id: `source-${s.n}`, children: s.runs.map(run) })] }),
      ...s.quotes.map(
        (q) =>
          new Paragraph({
            indent: { left: 360 },
            children: [new TextRun({ text: `“${q}”`, italics: true, font: FONT })],
          }),
      ),
    ]),
    new Paragraph({
      children: [new TextRun({ text: outline.footer, italics: true, color: '555555', font: FONT })],
    }),
  ];
  const doc = new Document({
    title: outline.title,
    creator: 'Deep Research for Slack',
    styles: { default: { document: { run: { font: FONT, size: 21 } } } },
    sections: [{ children }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

function block(b: DocBlock): (Paragraph | Table)[] {
  switch (b.kind) {
    case 'heading':
      return [
        new Paragraph({
          heading: HEADINGS[Math.min(3, Math.max(1, b.level)) - 1],
          children: b.runs.map(run),
        }),
      ];
    case 'paragraph':
      return [new Paragraph({ children: b.runs.map(run) })];
    case 'quote':
      return [
        new Paragraph({ indent: { left: 360 }, children: b.runs.map((r) => run({ ...r, italic: true })) }),
      ];
    case 'list':
      return b.items.map(
        (item, i) =>
          new Paragraph({
            indent: { left: 360, hanging: 240 },
            children: [
              new TextRun({ text: b.ordered ? `${(b.start ?? 1) + i}. ` : '• ', font: FONT }),
              ...item.map(run),
            ],
          }),
      );
    case 'table': {
      const width = Math.max(b.header.length, ...b.rows.map((r) => r.length));
      const row = (cells: Run[][], head = false) =>
        new TableRow({
          tableHeader: head,
          children: Array.from(
            { length: width },
            (_, i) =>
              new TableCell({
                ...(head ? { shading: { type: ShadingType.CLEAR, fill: 'EEEEEE', color: 'auto' } } : {}),
                children: [
                  new Paragraph({
                    children: (cells[i] ?? []).map((r) => run(head ? { ...r, bold: true } : r)),
                  }),
                ],
              }),
          ),
        });
      return [
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [row(b.header, true), ...b.rows.map((r) => row(r))],
        }),
        new Paragraph({ children: [] }),
      ];
    }
    case 'code':
      return b.text
        .split('\n')
        .map(
          (line) => new Paragraph({ children: [new TextRun({ text: line, font: 'Consolas', size: 18 })] }),
        );
  }
}

function run(r: Run): TextRun | ExternalHyperlink | InternalHyperlink {
  const text = new TextRun({
    text: r.text,
    font: r.code ? 'Consolas' : FONT,
    ...(r.bold ? { bold: true } : {}),
    ...(r.italic ? { italics: true } : {}),
    ...(r.url || r.source ? { style: 'Hyperlink' } : {}),
  });
  if (r.source) return new InternalHyperlink({ anchor: `source-${r.source}`, children: [text] });
  if (r.url) return new ExternalHyperlink({ link: r.url, children: [text] });
  return text;
}
