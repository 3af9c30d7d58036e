import type { RenderExport } from '../ports/report-export.js';

/** A report as PDF or Word; each writer is loaded when first asked for (a command that exports nothing loads neither). */
export const renderExport: RenderExport = async (format, input) => {
  if (format === 'pdf') return (await import('./pdf-report.js')).pdfReport(input);
  return (await import('./docx-report.js')).docxReport(input);
};
