import type { ExportFormat, ExportInput, RenderExport } from '../ports/report-export.js';

/** A report as PDF or Word; each writer is loaded when first asked for (a command that exports nothing loads neither). */
export const renderExport: RenderExport = async (format, input) => {
  if (format === 'pdf') return (await import('./pdf-report.js')).pdfReport(input);
  return (await import('./docx-report.js')).docxReport(input);
};

/** What an export thread runs (export-worker.mjs). */
export function writeExport(task: { format: ExportFormat; input: ExportInput }): Promise<Uint8Array> {
  return renderExport(task.format, task.input);
}
