import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { SharedFiles } from '../ports/research.js';
import { fileText, readableFile, SHARED_KINDS } from '../search/extract/file-text.js';

/**
 * `ask --file PATH`: the files given with the question, read before anything
 * runs: those research reads (with their text, kept with the session once it
 * is admitted) and those it does not, with why.
 */
export async function readLocalFiles(
  paths: string[],
  maxBytes: number,
): Promise<{ files: SharedFiles; texts: Map<string, string> }> {
  const files: SharedFiles = { given: [], skipped: [] };
  const texts = new Map<string, string>();
  for (const given of paths) {
    const path = resolve(given);
    const name = basename(path);
    const info = await stat(path).catch(() => undefined);
    const why = !info?.isFile()
      ? 'no such file'
      : !readableFile(name)
        ? `not ${SHARED_KINDS}`
        : info.size > maxBytes
          ? `larger than ${Math.round(maxBytes / 1_048_576)} MB`
          : undefined;
    if (why) {
      files.skipped.push({ name: given, reason: why });
      continue;
    }
    try {
      const text = await fileText(name, await readFile(path));
      if (!text.trim()) throw new Error('no text found (a scanned PDF needs text recognition first)');
      const key = `file:${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;
      files.given.push({ key, name, from: path, size: info!.size });
      texts.set(key, text);
    } catch (error) {
      files.skipped.push({ name: given, reason: (error as Error).message });
    }
  }
  return { files, texts };
}
