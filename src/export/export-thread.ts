import { Piscina } from 'piscina';
import type { ExportFormat, ExportInput, RenderExport } from '../ports/report-export.js';

/**
 * Exports laid out in a thread of their own (a long PDF takes a second or
 * two of CPU: Slack's acks and /healthz never wait on it), one at a time;
 * the thread starts on the first export and ends when idle.
 */
export function threadedExport(): RenderExport {
  let pool: Piscina<{ format: ExportFormat; input: ExportInput }, Uint8Array> | undefined;
  return async (format, input) => {
    pool ??= new Piscina({
      filename: new URL('./export-worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 30_000,
    });
    return new Uint8Array(await pool.run({ format, input }));
  };
}
