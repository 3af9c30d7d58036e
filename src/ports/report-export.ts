import type { FinalReport } from './report.js';

/** The files a report is exported as. */
export type ExportFormat = 'pdf' | 'docx';

export const EXPORT_FORMATS: Record<ExportFormat, { extension: string; mime: string; name: string }> = {
  pdf: { extension: 'pdf', mime: 'application/pdf', name: 'PDF' },
  docx: {
    extension: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    name: 'Word',
  },
};

/** What an exported report holds: its question, the date it was written, the report, and its usage line. */
export interface ExportInput {
  question: string;
  /** When the report was written (ISO). */
  date: string;
  report: FinalReport;
  footer: string;
}

/** Writes a report as a document (the export adapters, src/export). */
export type RenderExport = (format: ExportFormat, input: ExportInput) => Promise<Uint8Array>;
