import type pg from 'pg';
import type { Logger } from '../ports/logger.js';
import { EXPORT_FORMATS, type ExportFormat, type RenderExport } from '../ports/report-export.js';
import { usageFooter } from '../ports/report-markdown.js';
import type { SessionView } from '../ports/research.js';
import type { SessionRow } from './records/session-store.js';

/** A report's file, ready to hand over, or why there is none. */
export type Exported =
  | { file: { bytes: Uint8Array; filename: string; title: string; version: number } }
  | { refused: string };

/**
 * A finished report as a PDF or Word file, for every surface: built once per
 * report version and kept with the session (a second click, or the other
 * person's, reads it back), gone when the report is deleted.
 */
export class ReportExports {
  constructor(
    private readonly deps: {
      pool: pg.Pool;
      render: RenderExport;
      view: (id: string) => Promise<SessionView | null>;
      log: Logger;
    },
  ) {}

  async file(row: SessionRow, format: ExportFormat): Promise<Exported> {
    if (row.deleted) return { refused: 'That report was deleted.' };
    const view = await this.deps.view(row.id);
    const report = row.report ?? view?.report ?? null;
    if (!report || !view) return { refused: 'That research has no report to export yet.' };
    const version = view.reportVersion;
    const name = EXPORT_FORMATS[format];
    const filename = `${slug(row.question)}${version > 1 ? `-v${version}` : ''}.${name.extension}`;
    const title = `Research report (${name.name})`;
    const { rows } = await this.deps.pool.query(
      'SELECT bytes FROM report_exports WHERE session_id = $1 AND version = $2 AND format = $3',
      [row.id, version, format],
    );
    if (rows[0]) return { file: { bytes: new Uint8Array(rows[0].bytes), filename, title, version } };
    const started = performance.now();
    const bytes = await this.deps.render(format, {
      question: row.question,
      date: (row.finishedAt ?? row.updatedAt).toISOString(),
      report,
      footer: usageFooter(report, view.usage, row.id, version),
    });
    await this.deps.pool.query(
      `INSERT INTO report_exports (session_id, version, format, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [row.id, version, format, Buffer.from(bytes)],
    );
    this.deps.log.info(
      { sessionId: row.id, format, bytes: bytes.length, ms: Math.round(performance.now() - started) },
      'report exported',
    );
    return { file: { bytes, filename, title, version } };
  }
}

/** A file name from the question: its first words, letters and digits of any script. */
function slug(question: string): string {
  const words = question
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return (words.slice(0, 60).replace(/-+$/, '') || 'report').toLowerCase();
}
