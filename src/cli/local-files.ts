import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type DocumentReading, readKind, SHARED_KINDS } from '../ports/document-reading.js';
import type { SharedFiles } from '../ports/research.js';

/**
 * `ask --file PATH`: the files given with the question, read (through the
 * document reader, within its limits) before anything runs: those research
 * reads, with their text (kept with the session once it is admitted), and
 * those it does not, with why.
 */
export async function readLocalFiles(
  paths: string[],
  reader: DocumentReading,
): Promise<{ files: SharedFiles; texts: Map<string, string> }> {
  const files: SharedFiles = { given: [], skipped: [] };
  const texts = new Map<string, string>();
  for (const given of paths) {
    const path = resolve(given);
    const name = basename(path);
    const info = await stat(path).catch(() => undefined);
    const why = !info?.isFile()
      ? 'no such file'
      : !readKind(name)
        ? `not ${SHARED_KINDS}`
        : info.size > reader.limits.maxFileBytes
          ? reader.tooBig(info.size).reason
          : undefined;
    if (why) {
      files.skipped.push({ name: given, reason: why });
      continue;
    }
    try {
      const read = await reader.readFile(name, await readFile(path));
      if (!read.ok) {
        files.skipped.push({ name: given, reason: read.reason });
        continue;
      }
      const key = `file:${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;
      files.given.push({
        key,
        name,
        from: path,
        size: info!.size,
        ...(read.note ? { note: read.note } : {}),
      });
      texts.set(key, read.doc.text);
    } catch (error) {
      files.skipped.push({ name: given, reason: (error as Error).message });
    }
  }
  return { files, texts };
}
